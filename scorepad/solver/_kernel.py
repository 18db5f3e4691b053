"""The compiled inner loops of the solver (numba).

A state between turns is ``(mask, u, y)``: the filled-box bit mask, the upper
subtotal capped at the bonus threshold, and whether the YAHTZEE box holds 50.
``V[(mask * NU + u) * 2 + y]`` is the expected number of points still to come
from that state under optimal play (the upper bonus included, counted at the
end of the game).

Within a turn, ``eval_state`` works on the 462 keeps (``_dice``):

* ``e3[r]``: value of finishing with roll ``r`` (best box + bonus + successor),
* ``ek2[k]``: value of keeping ``k`` before the third roll (average over the rerolls,
  built by adding one die at a time: ``ek[k] = mean_f ek[k + f]``),
* ``m2[k]``: the best keep among the sub-multisets of ``k`` (built by removing one
  die at a time), so ``m2[r]`` is the value of roll ``r`` as the second roll,
* ``ek1``/``m1`` the same one roll earlier, and the state value is the average
  of ``m1`` over the first roll.

That makes a turn cost a few thousand additions and comparisons instead of the
two dense 252 x 462 products of the textbook formulation. ``solve_level`` values
the states of one level (same number of filled boxes) in parallel, BATCH states
side by side so that the keep stages run over contiguous, vectorisable lanes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._dice import ADD, KEEPS, NKEEPS, ROLL_PROB, ROLL_START, SUB, SUBKEEPS, YAHTZEE_FACE


def _sub_layout() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Keeps ordered by (size, distinct faces); their distinct one-die-smaller keeps."""
    distinct = (SUB >= 0).sum(axis=1)
    sizes = np.array([sum(c) for c in KEEPS])
    order = np.lexsort((distinct, sizes))  # by size, then by distinct faces
    subs = np.zeros((NKEEPS, 5), dtype=np.int64)
    segments: list[list[object]] = []
    for i, k in enumerate(order):
        row = SUB[k][SUB[k] >= 0]
        subs[i, : len(row)] = row
        key = (int(sizes[k]), int(distinct[k]))
        if segments and segments[-1][3] == key:
            segments[-1][1] = i + 1
        else:
            segments.append([i, i + 1, int(distinct[k]), key])
    seg = np.array([s[:3] for s in segments], dtype=np.int64)
    return order.astype(np.int64), subs, seg


SUB_ORDER, SUB_LIST, SUB_SEGMENTS = _sub_layout()
# The roll index of five 1s .. five 6s.
YAHTZEE_ROLL = np.array([int(np.flatnonzero(f == YAHTZEE_FACE)[0]) for f in range(1, 7)])

_NEG = -1.0e18
# Choices within this of each other count as ties (first one wins), so that rounding
# differences between CPUs do not change which of two equal keeps a simulation takes.
_TIE = 1.0e-9
_YAHTZEE = 11  # index of the YAHTZEE box


@njit(cache=True, nogil=True, fastmath=True)
def fill_e3(mask, u, y, V, T, NU, natf, ucnt, y50, joker, ybonus, e3):  # type: ignore[no-untyped-def]
    """e3[r] for every roll r: the best box for r in state (mask, u, y).

    ``natf[b, r]``: the best value of non-joker roll r in box b (-1e18 when forbidden),
    ``ucnt[b, r]``: that value divided by the face of upper box b,
    ``y50[r]``: 1.0 when r may take 50 in the YAHTZEE box.
    Jokers (five of a kind with the YAHTZEE box filled) are redone from ``joker``.
    """
    for r in range(ROLL_START, NKEEPS):
        e3[r] = _NEG
    yfilled = (mask >> _YAHTZEE) & 1
    wu = np.zeros((6, 6))
    wl = np.zeros(13)
    wy0 = 0.0
    wy1 = 0.0
    for b in range(13):
        if (mask >> b) & 1:
            continue
        nm = mask | (1 << b)
        if b < 6:
            f = b + 1
            for c in range(6):
                nu = min(T, u + f * c)
                wu[b, c] = V[(nm * NU + nu) * 2 + y]
            for r in range(ROLL_START, NKEEPS):
                e3[r] = max(e3[r], natf[b, r] + wu[b, ucnt[b, r]])
        elif b == _YAHTZEE:
            wy0 = V[(nm * NU + u) * 2]
            wy1 = V[(nm * NU + u) * 2 + 1]
            d = wy1 - wy0
            for r in range(ROLL_START, NKEEPS):
                e3[r] = max(e3[r], natf[b, r] + wy0 + y50[r] * d)
        else:
            c0 = V[(nm * NU + u) * 2 + y]
            wl[b] = c0
            for r in range(ROLL_START, NKEEPS):
                e3[r] = max(e3[r], natf[b, r] + c0)
    if yfilled == 1:
        bonus = ybonus if y == 1 else 0.0
        for face in range(1, 7):
            r = YAHTZEE_ROLL[face - 1]
            best = _NEG
            for b in range(13):
                if (mask >> b) & 1:
                    continue
                v = joker[y, face - 1, mask, b]
                if v < 0:
                    continue
                if b < 6:
                    t = v + wu[b, v // (b + 1)]
                elif b == _YAHTZEE:
                    t = v + (wy1 if v == 50 else wy0)
                else:
                    t = v + wl[b]
                best = max(best, t)
            e3[r] = best + bonus


@njit(cache=True, nogil=True)
def keep_values(src, ek):  # type: ignore[no-untyped-def]
    """ek[k]: expected value of keeping k and rolling the rest, given src on rolls."""
    for k in range(ROLL_START, NKEEPS):
        ek[k] = src[k]
    for k in range(ROLL_START - 1, -1, -1):
        # A balanced sum: three independent additions instead of a chain of six.
        a = ek[ADD[k, 0]] + ek[ADD[k, 1]]
        b = ek[ADD[k, 2]] + ek[ADD[k, 3]]
        c = ek[ADD[k, 4]] + ek[ADD[k, 5]]
        ek[k] = ((a + b) + c) / 6.0


@njit(cache=True, nogil=True)
def best_subkeep(ek, m):  # type: ignore[no-untyped-def]
    """m[k]: the best ek over the sub-multisets of k (k itself included).

    Keeps are visited by size, and within a size in runs with the same number of
    distinct faces, so each keep looks only at its distinct one-die-smaller keeps.
    """
    for s in range(SUB_SEGMENTS.shape[0]):
        start = SUB_SEGMENTS[s, 0]
        end = SUB_SEGMENTS[s, 1]
        d = SUB_SEGMENTS[s, 2]
        for i in range(start, end):
            k = SUB_ORDER[i]
            best = ek[k]
            for j in range(d):
                best = max(best, m[SUB_LIST[i, j]])
            m[k] = best


@njit(cache=True, nogil=True)
def eval_state(mask, u, y, V, T, NU, natf, ucnt, y50, joker, ybonus, e3, ek2, m2, ek1, m1):  # type: ignore[no-untyped-def]
    """Fill the within-turn arrays of one state and return its value."""
    fill_e3(mask, u, y, V, T, NU, natf, ucnt, y50, joker, ybonus, e3)
    keep_values(e3, ek2)
    best_subkeep(ek2, m2)
    keep_values(m2, ek1)
    best_subkeep(ek1, m1)
    s = 0.0
    for r in range(ROLL_START, NKEEPS):
        s += ROLL_PROB[r] * m1[r]
    return s


BATCH = 32  # states valued side by side: the keep loops then run over contiguous lanes


@njit(cache=True, nogil=True, fastmath=True)
def _keep_values_batch(src, ek, nb):  # type: ignore[no-untyped-def]
    for k in range(ROLL_START, NKEEPS):
        for j in range(nb):
            ek[k, j] = src[k, j]
    for k in range(ROLL_START - 1, -1, -1):
        a0 = ADD[k, 0]
        a1 = ADD[k, 1]
        a2 = ADD[k, 2]
        a3 = ADD[k, 3]
        a4 = ADD[k, 4]
        a5 = ADD[k, 5]
        for j in range(nb):
            ek[k, j] = ((ek[a0, j] + ek[a1, j]) + (ek[a2, j] + ek[a3, j])
                        + (ek[a4, j] + ek[a5, j])) * (1.0 / 6.0)


@njit(cache=True, nogil=True, fastmath=True)
def _best_subkeep_batch(ek, m, nb):  # type: ignore[no-untyped-def]
    for s in range(SUB_SEGMENTS.shape[0]):
        start = SUB_SEGMENTS[s, 0]
        end = SUB_SEGMENTS[s, 1]
        d = SUB_SEGMENTS[s, 2]
        for i in range(start, end):
            k = SUB_ORDER[i]
            for j in range(nb):
                m[k, j] = ek[k, j]
            for q in range(d):
                sub = SUB_LIST[i, q]
                for j in range(nb):
                    m[k, j] = max(m[k, j], m[sub, j])


@njit(cache=True, parallel=True)
def solve_level(states, V, T, NU, natf, ucnt, y50, joker, ybonus):  # type: ignore[no-untyped-def]
    """Value every state in ``states`` (rows of mask, u, y); their successors are done.

    States go BATCH at a time: the final-roll values of each state fill one column,
    then the keep stages run over all columns at once (vectorised by LLVM).
    """
    n = states.shape[0]
    nbatches = (n + BATCH - 1) // BATCH
    for c in prange(nbatches):
        e3 = np.zeros(NKEEPS)
        ea = np.zeros((NKEEPS, BATCH))
        eb = np.zeros((NKEEPS, BATCH))
        lo = c * BATCH
        nb = min(n, lo + BATCH) - lo
        for j in range(nb):
            fill_e3(states[lo + j, 0], states[lo + j, 1], states[lo + j, 2], V, T, NU,
                    natf, ucnt, y50, joker, ybonus, e3)
            for r in range(ROLL_START, NKEEPS):
                ea[r, j] = e3[r]
        _keep_values_batch(ea, eb, nb)  # ek2
        _best_subkeep_batch(eb, ea, nb)  # m2
        _keep_values_batch(ea, eb, nb)  # ek1
        _best_subkeep_batch(eb, ea, nb)  # m1
        for j in range(nb):
            v = 0.0
            for r in range(ROLL_START, NKEEPS):
                v += ROLL_PROB[r] * ea[r, j]
            i = lo + j
            V[(states[i, 0] * NU + states[i, 1]) * 2 + states[i, 2]] = v


# -- Monte Carlo of optimal play ---------------------------------------------------------

KEEP_COUNTS = np.array(KEEPS, dtype=np.int64)  # (NKEEPS, 6)
_POW6 = 6 ** np.arange(6, dtype=np.int64)
CODE_TO_KEEP = np.full(6**6, -1, dtype=np.int64)
CODE_TO_KEEP[KEEP_COUNTS @ _POW6] = np.arange(NKEEPS)


@njit(cache=True, nogil=True)
def choose_box(mask, u, y, r, V, T, NU, natural, joker):  # type: ignore[no-untyped-def]
    """The box (and value) optimal play writes roll r in; the same sums as fill_e3."""
    face = YAHTZEE_FACE[r]
    use_joker = face > 0 and ((mask >> _YAHTZEE) & 1) == 1
    best = _NEG
    best_b = -1
    best_v = 0
    for b in range(13):
        if (mask >> b) & 1:
            continue
        v = joker[y, face - 1, mask, b] if use_joker else natural[r, b]
        if v < 0:
            continue
        nm = mask | (1 << b)
        if b < 6:
            t = v + V[(nm * NU + min(T, u + v)) * 2 + y]
        elif b == _YAHTZEE:
            t = v + V[(nm * NU + u) * 2 + (1 if v == 50 else 0)]
        else:
            t = v + V[(nm * NU + u) * 2 + y]
        if t > best + _TIE:
            best = t
            best_b = b
            best_v = v
    return best_b, best_v


@njit(cache=True, nogil=True)
def _roll_onto(k):  # type: ignore[no-untyped-def]
    """Roll the dice not in keep k; return the resulting five-dice keep index."""
    code = 0
    n = 0
    for f in range(6):
        c = KEEP_COUNTS[k, f]
        code += c * _POW6[f]
        n += c
    for _ in range(5 - n):
        code += _POW6[np.random.randint(0, 6)]
    return CODE_TO_KEEP[code]


@njit(cache=True, nogil=True)
def _best_keep(ek, r):  # type: ignore[no-untyped-def]
    best = _NEG
    best_k = r
    for j in range(SUBKEEPS.shape[1]):
        k = SUBKEEPS[r, j]
        if k < 0:
            break
        if ek[k] > best + _TIE:
            best = ek[k]
            best_k = k
    return best_k


@njit(cache=True, nogil=True)
def simulate_games(  # type: ignore[no-untyped-def]
    n, seed, V, T, NU, natf, ucnt, y50, natural, joker, ybonus, upper_bonus,
    scores, upper_hit, yahtzee50, bonus_count,
):
    """Play n games optimally with numba's seeded generator; fill the four output arrays."""
    np.random.seed(seed)
    e3 = np.zeros(NKEEPS)
    ek2 = np.zeros(NKEEPS)
    m2 = np.zeros(NKEEPS)
    ek1 = np.zeros(NKEEPS)
    m1 = np.zeros(NKEEPS)
    first = np.zeros((2, NKEEPS))
    eval_state(0, 0, 0, V, T, NU, natf, ucnt, y50, joker, ybonus, e3, ek2, m2, ek1, m1)
    first[0, :NKEEPS] = ek1
    first[1, :NKEEPS] = ek2
    for g in range(n):
        mask = 0
        u = 0
        y = 0
        total = 0
        nb = 0
        for turn in range(13):
            if turn == 0:
                ek1[:] = first[0, :NKEEPS]
                ek2[:] = first[1, :NKEEPS]
            else:
                eval_state(mask, u, y, V, T, NU, natf, ucnt, y50, joker, ybonus,
                           e3, ek2, m2, ek1, m1)
            r = _roll_onto(0)
            r = _roll_onto(_best_keep(ek1, r))
            r = _roll_onto(_best_keep(ek2, r))
            if YAHTZEE_FACE[r] > 0 and y == 1 and ybonus > 0:
                total += ybonus
                nb += 1
            b, v = choose_box(mask, u, y, r, V, T, NU, natural, joker)
            total += v
            mask |= 1 << b
            if b < 6:
                u = min(T, u + v)
            elif b == _YAHTZEE:
                y = 1 if v == 50 else 0
        if u >= T:
            total += upper_bonus
            upper_hit[g] = True
        scores[g] = total
        yahtzee50[g] = y == 1
        bonus_count[g] = nb
