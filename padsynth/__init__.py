"""Photo synthesis: our own pad (and pads of other designs) written by hand and photographed.

Used by the tests, the benchmark, the sample photos and the classifier's training; never by
the runtime packages (``scorepad``, ``ocr``, ``api``).  Not installed: run from the repository.
"""
