#!/usr/bin/env python3
"""fers against itself through python-chess's chess.engine.

Usage: selfplay.py <fers binary> [games] [seconds+inc]

Plays short games between two fers processes (one with Threads 2, one
pondering), and fails (exit status 1) on any illegal move, illegal PV move
(python-chess logs those), engine error, loss on time, or game that does not
end by the rules. Exit status 3 means python-chess is missing (the caller
skips). Prints one line per game and a summary.
"""

import logging
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover
    print("python-chess is not installed (pip install chess)")
    sys.exit(3)

OPENINGS = [
    chess.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2",
    "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
]


class Errors(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    tc = sys.argv[3] if len(sys.argv) > 3 else "1+0.02"
    base, _, inc = tc.partition("+")
    base, inc = float(base), float(inc or 0)

    errors = Errors()
    logging.getLogger("chess.engine").addHandler(errors)
    problems = []
    a = chess.engine.SimpleEngine.popen_uci(binary)
    b = chess.engine.SimpleEngine.popen_uci(binary)
    try:
        a.configure({"Threads": 2, "Hash": 8})
        b.configure({"Hash": 8})
        for g in range(games):
            board = chess.Board(OPENINGS[g % len(OPENINGS)])
            white_is_a = g % 2 == 0
            clock = {chess.WHITE: base, chess.BLACK: base}
            result = None
            while not board.is_game_over(claim_draw=True) and board.ply() < 400:
                side = board.turn
                eng = a if (side == chess.WHITE) == white_is_a else b
                ponder = eng is b
                limit = chess.engine.Limit(
                    white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                    white_inc=inc, black_inc=inc)
                t0 = time.monotonic()
                r = eng.play(board, limit, info=chess.engine.INFO_ALL, ponder=ponder)
                clock[side] -= time.monotonic() - t0
                # The engine keeps its own reserve (Move Overhead), but on a
                # loaded machine Python and the scheduler add latency that
                # the engine cannot see: a small overrun is only reported;
                # a large one (an engine that does not stop) fails.
                if clock[side] < 0:
                    who = "white" if side else "black"
                    if clock[side] < -1.0:
                        problems.append(f"game {g + 1}: {who} lost on time ({clock[side]:.3f}s)")
                        result = "time"
                        break
                    print(f"WARNING game {g + 1}: {who} over time by {-clock[side]:.3f}s (machine load?)")
                    clock[side] = 0.0
                clock[side] += inc
                if r.move is None or r.move not in board.legal_moves:
                    problems.append(f"game {g + 1}: illegal move {r.move} in {board.fen()}")
                    result = "illegal"
                    break
                pv = (r.info or {}).get("pv") or []
                tmp = board.copy(stack=False)
                for m in pv:
                    if m not in tmp.legal_moves:
                        problems.append(f"game {g + 1}: illegal PV move {m} in {tmp.fen()}")
                        break
                    tmp.push(m)
                if r.ponder is not None:
                    after = board.copy(stack=False)
                    after.push(r.move)
                    if r.ponder not in after.legal_moves:
                        problems.append(f"game {g + 1}: illegal ponder move {r.ponder}")
                board.push(r.move)
            if result is None:
                out = board.outcome(claim_draw=True)
                result = out.result() + " " + out.termination.name.lower() if out else "unfinished"
            print(f"game {g + 1}: {result} after {board.ply()} plies", flush=True)
    finally:
        for e in (a, b):
            try:
                e.quit()
            except Exception as ex:  # a crash shows here
                problems.append(f"quit: {ex}")
    problems += ["python-chess: " + m for m in errors.messages]
    for p in problems:
        print("PROBLEM:", p)
    print("OK" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
