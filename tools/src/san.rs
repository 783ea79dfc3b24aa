//! Standard algebraic notation for PGN, generalised to every fers variant:
//! piece letter (upper case, none for pawns), the least disambiguation
//! (file, then rank, then both), `x` for captures, the target square (`a10`
//! on big boards), `=Q` for promotions, `O-O`/`O-O-O` for castling, `+` and
//! `#` for check and mate.

use fers_core::{Move, MoveFlag, MoveList, Position};

fn split_square(name: &str) -> (String, String) {
    let i = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    (name[..i].to_string(), name[i..].to_string())
}

/// The SAN of a legal move `m` in `pos`. Fanorona has no SAN: its turns
/// are written in SPEC notation (`d3e3w,e3f4a`, `d3e4`), which the PGN
/// reader accepts as well.
pub fn to_san(pos: &Position, m: Move) -> String {
    let v = pos.variant();
    if v.chains.is_some() {
        return pos.move_to_uci(m);
    }
    let geo = v.geometry;
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut s = match m.flag() {
        MoveFlag::CastleKing => "O-O".to_string(),
        MoveFlag::CastleQueen => "O-O-O".to_string(),
        _ => {
            let piece = pos.piece_at(m.from());
            let kind = piece.kind();
            let is_pawn = v.pieces[kind as usize].is_pawn();
            let from = geo.square_name(m.from());
            let (from_file, from_rank) = split_square(&from);
            let mut s = String::new();
            if is_pawn {
                if pos.is_capture(m) {
                    s.push_str(&from_file);
                }
            } else {
                s.push(v.pieces[kind as usize].letter.to_ascii_uppercase());
                let rivals: Vec<Move> = list
                    .iter()
                    .filter(|&o| {
                        o != m
                            && o.to() == m.to()
                            && o.from() != m.from()
                            && pos.piece_at(o.from()).kind() == kind
                            && !matches!(o.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen)
                    })
                    .collect();
                if !rivals.is_empty() {
                    let same_file = rivals
                        .iter()
                        .any(|o| geo.file_of(o.from()) == geo.file_of(m.from()));
                    let same_rank = rivals
                        .iter()
                        .any(|o| geo.rank_of(o.from()) == geo.rank_of(m.from()));
                    if !same_file {
                        s.push_str(&from_file);
                    } else if !same_rank {
                        s.push_str(&from_rank);
                    } else {
                        s.push_str(&from);
                    }
                }
            }
            if pos.is_capture(m) {
                s.push('x');
            }
            s.push_str(&geo.square_name(m.to()));
            if let Some(k) = m.promotion() {
                s.push('=');
                s.push(v.pieces[k as usize].letter.to_ascii_uppercase());
            }
            if let Some(c) = m.flag().suffix() {
                s.push(c);
            }
            s
        }
    };
    let mut next = pos.clone();
    next.play(m);
    if next.in_check() {
        let mut replies = MoveList::new();
        next.legal_moves(&mut replies);
        s.push(if replies.is_empty() { '#' } else { '+' });
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use fers_core::variant;

    fn san(fen: &str, uci: &str) -> String {
        let pos = Position::from_fen(variant::chess(), fen).unwrap();
        let m = pos.parse_move(uci).unwrap();
        to_san(&pos, m)
    }

    #[test]
    fn chess_san() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san(start, "e2e4"), "e4");
        assert_eq!(san(start, "g1f3"), "Nf3");
        // Castling both ways, check, mate.
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(san(fen, "e1g1"), "O-O");
        assert_eq!(san(fen, "e1c1"), "O-O-O");
        assert_eq!(san(fen, "a1a8"), "Rxa8+");
        assert_eq!(san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8#");
        // En passant and promotion with capture.
        assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(san("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n"), "axb8=N");
        // Disambiguation by file, by rank, and by both.
        assert_eq!(san("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1"), "Rad1");
        // The king blocks the h1 rook: no disambiguation.
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "a1d1"), "Rd1");
        assert_eq!(san("4k3/R7/8/8/8/8/8/R3K3 w - - 0 1", "a1a4"), "R1a4");
        assert_eq!(san("k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1", "c3d2"), "Qc3d2");
    }

    #[test]
    fn fanorona_turns_in_spec_notation() {
        let v = variant::builtin("fanorona").unwrap();
        let pos = Position::startpos(v);
        let m = pos.parse_move("d3e3w").unwrap();
        assert_eq!(to_san(&pos, m), "d3e3w");
    }
}
