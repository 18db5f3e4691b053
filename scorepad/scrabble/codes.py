"""SCRABBLE finding codes (stable; wording in ``messages``)."""

from __future__ import annotations

from ..games.common import GameCode, Severity, set_severities


class ScrabbleCode(GameCode):
    # the sheet
    PLAYER_COUNT = "SCRABBLE_PLAYER_COUNT"  # warning: the book is for 2 to 4 players
    TURN_COUNT = "SCRABBLE_TURN_COUNT"  # turns do not pass to the left in order
    NO_PLAY_SCORED = "SCRABBLE_NO_PLAY_SCORED"  # a pass, exchange or lost turn scores 0
    NO_PLAY_TILES = "SCRABBLE_NO_PLAY_TILES"  # a pass, exchange or lost turn lists tiles
    SCORE_NEGATIVE = "SCRABBLE_SCORE_NEGATIVE"  # no play scores below 0
    RUNNING_TOTAL = "SCRABBLE_RUNNING_TOTAL"  # a running total does not add up
    ADJUSTMENT_WRONG = "SCRABBLE_ADJUSTMENT_WRONG"  # unplayed letters counted wrong
    TWO_WENT_OUT = "SCRABBLE_TWO_WENT_OUT"  # more than one player used all letters
    OUT_NOT_LAST = "SCRABBLE_OUT_NOT_LAST"  # the player who went out did not play last
    FINAL_WRONG = "SCRABBLE_FINAL_WRONG"  # final score is not last total + adjustment
    WINNER_WRONG = "SCRABBLE_WINNER_WRONG"  # the winner written is not the winner
    SLIP_CHANGES_WINNER = "SCRABBLE_SLIP_CHANGES_WINNER"  # warning: written scores crown another
    GAME_IN_PROGRESS = "SCRABBLE_GAME_IN_PROGRESS"  # notice: no end-of-game scores yet
    TILES_EXCEED_BAG = "SCRABBLE_TILES_EXCEED_BAG"  # more of a letter than the 100 tiles hold
    # the move log
    MOVE_LOG_INCOMPLETE = "SCRABBLE_MOVE_LOG_INCOMPLETE"  # notice: some plays have no tiles
    TOO_MANY_TILES = "SCRABBLE_TOO_MANY_TILES"  # more than seven tiles in one play
    SQUARE_TAKEN = "SCRABBLE_SQUARE_TAKEN"  # a tile on an occupied square
    NOT_IN_LINE = "SCRABBLE_NOT_IN_LINE"  # tiles not in one row or column
    GAP = "SCRABBLE_GAP"  # the tiles and the board's letters do not make one word
    FIRST_NOT_ON_STAR = "SCRABBLE_FIRST_NOT_ON_STAR"  # the first word misses the centre star
    FIRST_TOO_SHORT = "SCRABBLE_FIRST_TOO_SHORT"  # the first play has fewer than two letters
    NOT_CONNECTED = "SCRABBLE_NOT_CONNECTED"  # a later play touches no letter on the board
    TURN_SCORE_WRONG = "SCRABBLE_TURN_SCORE_WRONG"  # the written score is not the play's score
    BINGO_MISSING = "SCRABBLE_BINGO_MISSING"  # seven tiles, but the 50 premium not added
    BINGO_NOT_EARNED = "SCRABBLE_BINGO_NOT_EARNED"  # the 50 premium added without seven tiles
    WORD_NOT_IN_LIST = "SCRABBLE_WORD_NOT_IN_LIST"  # warning: a word the supplied list lacks


set_severities({
    ScrabbleCode.PLAYER_COUNT: Severity.WARNING,
    ScrabbleCode.SLIP_CHANGES_WINNER: Severity.WARNING,
    ScrabbleCode.WORD_NOT_IN_LIST: Severity.WARNING,
    ScrabbleCode.GAME_IN_PROGRESS: Severity.NOTICE,
    ScrabbleCode.MOVE_LOG_INCOMPLETE: Severity.NOTICE,
})
