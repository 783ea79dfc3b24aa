#!/usr/bin/env python3
"""Engine match runner over python-chess's chess.engine (UCI).

Plays openings from an EPD file with both colours, keeps the clocks itself
(wall time of each `go`, plus increment; a flag fall loses), adjudicates
nothing but the rules (mate, stalemate, 50 moves, threefold, insufficient
material), and prints W/D/L and the Elo difference with a 95% error bar from
the first engine's point of view.

Example (fers against Stockfish at UCI_Elo 2000, 10s+0.1s, 100 games):

  tools/py/match.py --engine target/release/fers \
      --opponent /usr/games/stockfish --opt2 UCI_LimitStrength=true \
      --opt2 UCI_Elo=2000 --tc 10+0.1 --games 100 \
      --openings /work/shared/ref/chess/openings-8moves-2000.epd

Every move and every PV move of both engines is checked for legality
(python-chess logs an error for an illegal PV move; the script counts them
and exits with status 2 if any appeared).
"""

import argparse
import logging
import math
import random
import sys
import time

import chess
import chess.engine
import chess.pgn


class ErrorCounter(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def parse_opts(items):
    out = {}
    for it in items or []:
        k, _, v = it.partition("=")
        if v.lower() in ("true", "false"):
            out[k] = v.lower() == "true"
        else:
            try:
                out[k] = int(v)
            except ValueError:
                out[k] = v
    return out


def elo_with_error(w, d, l):
    n = w + d + l
    if n == 0:
        return 0.0, 0.0, 0.5
    p = (w + 0.5 * d) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * (0 - p) ** 2) / n
    se = math.sqrt(var / n) if n > 0 else 0.0

    def elo(x):
        x = min(max(x, 1e-6), 1 - 1e-6)
        return -400.0 * math.log10(1.0 / x - 1.0)

    e = elo(p)
    lo, hi = elo(p - 1.96 * se), elo(p + 1.96 * se)
    return e, (hi - lo) / 2.0, p


def check_pv(board, info, who, errors):
    pv = info.get("pv") if info else None
    if not pv:
        return
    b = board.copy(stack=False)
    for m in pv:
        if m not in b.legal_moves:
            errors.append(f"{who}: illegal PV move {m} in {board.fen()}")
            return
        b.push(m)


def play_game(e1, e2, fen, fers_white, tc, inc, errors, max_plies=600, ponder=False):
    board = chess.Board(fen)
    engines = {chess.WHITE: e1 if fers_white else e2, chess.BLACK: e2 if fers_white else e1}
    names = {chess.WHITE: "e1" if fers_white else "e2", chess.BLACK: "e2" if fers_white else "e1"}
    clock = {chess.WHITE: tc, chess.BLACK: tc}
    for e in (e1, e2):
        try:
            e.configure({})
        except Exception:
            pass
    result = None
    reason = ""
    for _ in range(max_plies):
        if board.is_game_over(claim_draw=True):
            break
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=max(clock[chess.WHITE], 0.001),
            black_clock=max(clock[chess.BLACK], 0.001),
            white_inc=inc,
            black_inc=inc,
        )
        t0 = time.monotonic()
        try:
            r = engines[side].play(board, limit, info=chess.engine.INFO_ALL, ponder=ponder)
        except Exception as ex:  # engine crash or illegal bestmove
            errors.append(f"{names[side]}: {type(ex).__name__}: {ex} at {board.fen()}")
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = "error"
            break
        used = time.monotonic() - t0
        clock[side] -= used
        if clock[side] < 0:
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"time ({names[side]} flagged, {clock[side]:.3f}s)"
            break
        clock[side] += inc
        if r.move is None or r.move not in board.legal_moves:
            errors.append(f"{names[side]}: illegal move {r.move} in {board.fen()}")
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = "illegal move"
            break
        check_pv(board, r.info, names[side], errors)
        board.push(r.move)
    if result is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            result, reason = "1/2-1/2", "max plies"
        else:
            result, reason = outcome.result(), outcome.termination.name.lower()
    return result, reason, board


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="first engine (fers)")
    ap.add_argument("--opponent", required=True, help="second engine")
    ap.add_argument("--opt1", action="append", help="Name=value option of engine 1")
    ap.add_argument("--opt2", action="append", help="Name=value option of engine 2")
    ap.add_argument("--tc", default="10+0.1", help="seconds+increment")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--openings", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ponder", action="store_true", help="let engine 1 ponder (go ponder / ponderhit)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--pgn", default=None, help="append the games to this PGN file")
    args = ap.parse_args()

    base, _, incs = args.tc.partition("+")
    tc, inc = float(base), float(incs or 0)
    fens = [chess.STARTING_FEN]
    if args.openings:
        with open(args.openings) as f:
            fens = [" ".join(l.split()[:4]) + " 0 1" for l in f if l.strip()]
    rng = random.Random(args.seed)
    rng.shuffle(fens)

    counter = ErrorCounter()
    logging.getLogger("chess.engine").addHandler(counter)
    errors = []
    e1 = chess.engine.SimpleEngine.popen_uci(args.engine.split())
    e2 = chess.engine.SimpleEngine.popen_uci(args.opponent.split())
    e1.configure(parse_opts(args.opt1))
    e2.configure(parse_opts(args.opt2))
    w = d = l = 0
    reasons = {}
    try:
        for g in range(args.games):
            fen = fens[(g // 2) % len(fens)]
            fers_white = g % 2 == 0
            for e in (e1, e2):
                e.protocol.send_line("ucinewgame") if hasattr(e, "protocol") else None
            res, why, board = play_game(e1, e2, fen, fers_white, tc, inc, errors, ponder=args.ponder)
            if res == "1/2-1/2":
                d += 1
                sc = "D"
            elif (res == "1-0") == fers_white:
                w += 1
                sc = "W"
            else:
                l += 1
                sc = "L"
            reasons[why] = reasons.get(why, 0) + 1
            if args.pgn:
                game = chess.pgn.Game.from_board(board)
                game.headers["White"] = "e1" if fers_white else "e2"
                game.headers["Black"] = "e2" if fers_white else "e1"
                game.headers["Result"] = res
                game.headers["Termination"] = why
                game.headers["Round"] = str(g + 1)
                with open(args.pgn, "a") as f:
                    print(game, file=f, end="\n\n")
            e, err, p = elo_with_error(w, d, l)
            if not args.quiet:
                print(f"game {g + 1}: {'white' if fers_white else 'black'} {sc} {res} ({why}, {board.ply()} plies)"
                      f"  total +{w} ={d} -{l}  score {100 * p:.1f}%  elo {e:+.0f} +/- {err:.0f}", flush=True)
    finally:
        for e in (e1, e2):
            try:
                e.quit()
            except Exception:
                pass
    e, err, p = elo_with_error(w, d, l)
    print(f"RESULT games {w + d + l} W {w} D {d} L {l} score {100 * p:.1f}% elo {e:+.0f} +/- {err:.0f}")
    print(f"terminations: {reasons}")
    bad = errors + counter.messages
    for m in bad:
        print("ERROR:", m)
    if bad:
        sys.exit(2)


if __name__ == "__main__":
    main()
