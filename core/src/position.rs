//! The position: board, side to move, castling rights, en passant, clocks,
//! Zobrist key; FEN parsing and printing; playing a move (copy-make: clone
//! the position, then `play` on the copy, so that every rule that changes the
//! board in unusual ways needs no undo code).

use crate::geometry::{SquareSet, MAX_SQUARES, NO_SQ};
use crate::moves::{Move, MoveError, MoveFlag, MoveList};
use crate::piece::{Color, Piece};
use crate::variant::Variant;
use std::fmt;

/// Castling wings, indexing `castle_rooks[colour][wing]`.
pub const KING_SIDE: usize = 0;
pub const QUEEN_SIDE: usize = 1;

/// A game state of one variant.
#[derive(Clone)]
pub struct Position {
    pub(crate) v: &'static Variant,
    pub(crate) board: [Piece; MAX_SQUARES],
    /// Squares occupied by each colour.
    pub(crate) occ: [SquareSet; 2],
    /// Square of each side's royal piece, or `NO_SQ`.
    pub(crate) royal: [u8; 2],
    pub(crate) side: Color,
    /// Rook squares that still have castling rights, `NO_SQ` when lost.
    pub(crate) castle_rooks: [[u8; 2]; 2],
    /// En-passant target square, or `NO_SQ`.
    pub(crate) ep: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    /// Zobrist key of the pawns alone (for pawn-structure caches).
    pub(crate) pawn_key: u64,
    /// Rule state between moves, in the key too. Circe parrain: the unit
    /// captured by the last move, waiting to reappear (`EMPTY`: none), and
    /// its capture square.
    pub(crate) pending: Piece,
    pub(crate) pending_sq: u8,
    /// Messigny: the squares of the pieces of the last exchange (`NO_SQ`).
    pub(crate) exchanged: [u8; 2],
    /// The FEN was the vchess site's (`<board> <side> <count>`): `to_fen`
    /// answers in the same form (not part of the key), its count the
    /// site's plus the plies played since; `site_delta` is the site's count
    /// minus fers's ply count at parse time (the site's diagrams may give
    /// Black to move at count 0).
    pub(crate) site_fen: bool,
    pub(crate) site_delta: i16,
}

/// The third field of a vchess FEN is the number of plies played (fers's
/// castling field is never a bare number).
fn vchess_move_count(field: &str) -> Option<u16> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(field.parse::<u16>().unwrap_or(u16::MAX).min(u16::MAX - 1))
}

/// Why a FEN was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

fn fen_err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

impl Position {
    /// The variant's start position.
    pub fn startpos(v: &'static Variant) -> Position {
        Position::from_fen(v, &v.start_fen).expect("start FEN of a built variant is valid")
    }

    fn empty(v: &'static Variant) -> Position {
        Position {
            v,
            board: [Piece::EMPTY; MAX_SQUARES],
            occ: [SquareSet::EMPTY; 2],
            royal: [NO_SQ; 2],
            side: Color::White,
            castle_rooks: [[NO_SQ; 2]; 2],
            ep: NO_SQ,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            pawn_key: 0,
            pending: Piece::EMPTY,
            pending_sq: NO_SQ,
            exchanged: [NO_SQ; 2],
            site_fen: false,
            site_delta: 0,
        }
    }

    /// Parses a FEN of this variant. Trailing fields may be omitted.
    pub fn from_fen(v: &'static Variant, fen: &str) -> Result<Position, FenError> {
        let mut pos = Position::empty(v);
        let geo = v.geometry;
        let mut fields = fen.split_whitespace();
        let board = match fields.next() {
            Some(b) => b,
            None => return fen_err("empty FEN"),
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != geo.ranks as usize {
            return fen_err(format!(
                "{} ranks given, the board has {}",
                rows.len(),
                geo.ranks
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = geo.ranks - 1 - i as u8;
            let mut file: u32 = 0;
            let bytes = row.as_bytes();
            let mut j = 0;
            while j < bytes.len() {
                let c = bytes[j];
                if c.is_ascii_digit() {
                    let mut n = (c - b'0') as u32;
                    if j + 1 < bytes.len() && bytes[j + 1].is_ascii_digit() {
                        n = n * 10 + (bytes[j + 1] - b'0') as u32;
                        j += 1;
                    }
                    if n == 0 {
                        return fen_err(format!("rank {}: zero empty squares", rank + 1));
                    }
                    file += n;
                } else {
                    if file >= geo.files as u32 {
                        return fen_err(format!(
                            "rank {} has more than {} files",
                            rank + 1,
                            geo.files
                        ));
                    }
                    let sq = geo.square(file as u8, rank);
                    let ch = c as char;
                    match v.kind_of_letter(ch) {
                        Some(kind) if ch.is_ascii_alphabetic() => {
                            let color = if ch.is_ascii_uppercase() {
                                Color::White
                            } else {
                                Color::Black
                            };
                            pos.put(sq, Piece::new(kind, color));
                        }
                        _ if ch == 'x' || ch == '*' => pos.board[sq as usize] = Piece::HOLE,
                        _ => return fen_err(format!("unknown piece letter '{ch}'")),
                    }
                    file += 1;
                }
                if file > geo.files as u32 {
                    return fen_err(format!(
                        "rank {} has more than {} files",
                        rank + 1,
                        geo.files
                    ));
                }
                j += 1;
            }
            if file != geo.files as u32 {
                return fen_err(format!(
                    "rank {} has {} files, not {}",
                    rank + 1,
                    file,
                    geo.files
                ));
            }
        }

        pos.side = match fields.next() {
            None | Some("w") | Some("W") => Color::White,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return fen_err(format!("side to move '{s}' is not w or b")),
        };

        // Royal pieces: exactly one per side when the variant has a royal kind.
        if let Some(rk) = v.royal_kind {
            for c in [Color::White, Color::Black] {
                let royals: Vec<u8> = pos.occ[c.index()]
                    .iter()
                    .filter(|&s| pos.board[s as usize].kind() == rk)
                    .collect();
                if royals.len() != 1 {
                    return fen_err(format!(
                        "{} has {} {}s, needs exactly one",
                        if c == Color::White { "White" } else { "Black" },
                        royals.len(),
                        v.pieces[rk as usize].name
                    ));
                }
                pos.royal[c.index()] = royals[0];
            }
        }

        let mut fields = fields.peekable();
        if let Some(n) = fields.peek().and_then(|f| vchess_move_count(f)) {
            // The vchess site's FEN: `<board> <side> <plies played>`.
            fields.next();
            pos.fullmove = n / 2 + 1;
            pos.site_fen = true;
            pos.site_delta = (n as i32 - pos.plies_played()) as i16;
        } else if let Some(cf) = fields.next() {
            pos.parse_castling(cf)?;
        }
        if let Some(ep) = fields.next() {
            if ep != "-" {
                let sq = match geo.parse_square(ep) {
                    Some(s) => s,
                    None => return fen_err(format!("en-passant square '{ep}' is not a square")),
                };
                if v.en_passant && v.pawn_kind.is_some() {
                    if !pos.ep_possible(sq) {
                        return fen_err(format!("en-passant square '{ep}' is impossible here"));
                    }
                    pos.ep = sq;
                }
            }
        }
        if let Some(h) = fields.next() {
            pos.halfmove = match h.parse() {
                Ok(n) => n,
                Err(_) => return fen_err(format!("half-move clock '{h}' is not a number")),
            };
        }
        if let Some(f) = fields.next() {
            pos.fullmove = match f.parse::<u16>() {
                Ok(n) => n.max(1),
                Err(_) => return fen_err(format!("move number '{f}' is not a number")),
            };
        }
        if let Some(extra) = fields.next() {
            return fen_err(format!("unexpected field '{extra}'"));
        }
        if v.chains.is_some() {
            for c in [Color::White, Color::Black] {
                let n = pos.occ[c.index()].len();
                if n > crate::fanorona::MAX_STONES {
                    return fen_err(format!(
                        "{} has {n} stones; at most {} can arise",
                        if c == Color::White { "White" } else { "Black" },
                        crate::fanorona::MAX_STONES
                    ));
                }
            }
        }
        // The side that just moved may not have its royal piece attacked.
        if pos.royal_capturable(pos.side) {
            return fen_err("the side not to move is in check");
        }
        pos.key = pos.compute_key();
        pos.pawn_key = pos.compute_pawn_key();
        Ok(pos)
    }

    fn parse_castling(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let v = self.v;
        let geo = v.geometry;
        let rook_kind = v.kind_of_letter('r');
        for ch in field.chars() {
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let c = color.index();
            let ksq = self.royal[c];
            let back = if color == Color::White {
                0
            } else {
                geo.ranks - 1
            };
            if !ch.is_ascii_alphabetic() {
                return fen_err(format!("castling field '{field}' has '{ch}'"));
            }
            if !v.castling || ksq == NO_SQ || geo.rank_of(ksq) != back || rook_kind.is_none() {
                continue; // a right that cannot exist is dropped, as Stockfish does
            }
            let rook = Piece::new(rook_kind.unwrap_or(0), color);
            let kf = geo.file_of(ksq);
            let lower = ch.to_ascii_lowercase();
            let rook_file = match lower {
                // The outermost rook on that wing.
                'k' => (kf + 1..geo.files)
                    .rev()
                    .find(|&f| self.board[geo.square(f, back) as usize] == rook),
                'q' => (0..kf).find(|&f| self.board[geo.square(f, back) as usize] == rook),
                f if (f as u8) >= b'a' && (f as u8) < b'a' + geo.files => Some(f as u8 - b'a'),
                _ => return fen_err(format!("castling field '{field}' has '{ch}'")),
            };
            let Some(rf) = rook_file else { continue };
            let rsq = geo.square(rf, back);
            if self.board[rsq as usize] != rook || rf == kf {
                continue;
            }
            let wing = if rf > kf { 0 } else { 1 };
            self.castle_rooks[c][wing] = rsq;
        }
        Ok(())
    }

    /// The position as FEN, in the form it was given: the vchess site's
    /// (`<board> <side> <count>`) for a site FEN, else the full one.
    pub fn to_fen(&self) -> String {
        if self.site_fen {
            let full = self.to_full_fen();
            let mut f = full.split(' ');
            let (board, side) = (f.next().unwrap_or(""), f.next().unwrap_or("w"));
            // The site counts plies played (its FEN has no other field).
            let count = (self.plies_played() + self.site_delta as i32).max(0);
            return format!("{board} {side} {count}");
        }
        self.to_full_fen()
    }

    /// The position as a full FEN (castling, en passant and both clocks),
    /// whatever form it was given in.
    pub fn to_full_fen(&self) -> String {
        let v = self.v;
        let geo = v.geometry;
        let mut s = String::with_capacity(96);
        for rank in (0..geo.ranks).rev() {
            let mut empty = 0;
            for file in 0..geo.files {
                let p = self.board[geo.square(file, rank) as usize];
                if p.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                if p == Piece::HOLE {
                    s.push(v.hole_char());
                } else {
                    s.push(v.letter(p.kind(), p.color()));
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let mut any = false;
        for color in [Color::White, Color::Black] {
            for wing in [KING_SIDE, QUEEN_SIDE] {
                let rsq = self.castle_rooks[color.index()][wing];
                if rsq == NO_SQ {
                    continue;
                }
                any = true;
                // KQkq when the rook is the outermost one, else its file letter.
                let back = geo.rank_of(rsq);
                let kf = geo.file_of(self.royal[color.index()]);
                let rook = self.board[rsq as usize];
                let outer = if wing == KING_SIDE {
                    (geo.file_of(rsq) + 1..geo.files)
                        .all(|f| self.board[geo.square(f, back) as usize] != rook)
                } else {
                    (0..geo.file_of(rsq)).all(|f| self.board[geo.square(f, back) as usize] != rook)
                };
                let _ = kf;
                let ch = if outer {
                    if wing == KING_SIDE {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    (b'a' + geo.file_of(rsq)) as char
                };
                s.push(if color == Color::White {
                    ch.to_ascii_uppercase()
                } else {
                    ch
                });
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        if self.ep == NO_SQ {
            s.push('-');
        } else {
            s.push_str(&geo.square_name(self.ep));
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// Plies played by fers's count: two a full move, one more with Black
    /// to move.
    pub fn plies_played(&self) -> i32 {
        (self.fullmove as i32 - 1) * 2 + (self.side == Color::Black) as i32
    }

    /// Pawn key computed from scratch (the incremental one must equal it).
    pub fn compute_pawn_key(&self) -> u64 {
        let z = &self.v.zobrist;
        let mut k = 0;
        for sq in 0..self.v.geometry.num_squares() as u8 {
            let p = self.board[sq as usize];
            if !p.is_empty() && self.is_pawn(p) {
                k ^= z.piece(p.0, sq);
            }
        }
        k
    }

    #[inline(always)]
    fn is_pawn(&self, p: Piece) -> bool {
        Some(p.kind()) == self.v.pawn_kind
    }

    /// Zobrist key computed from scratch (the incremental one must equal it).
    pub fn compute_key(&self) -> u64 {
        let z = &self.v.zobrist;
        let mut k = 0;
        for sq in 0..self.v.geometry.num_squares() as u8 {
            let p = self.board[sq as usize];
            if !p.is_empty() {
                k ^= z.piece(p.0, sq);
            }
        }
        if self.side == Color::Black {
            k ^= z.side;
        }
        for c in 0..2 {
            for w in 0..2 {
                if self.castle_rooks[c][w] != NO_SQ {
                    k ^= z.castle[c][w];
                }
            }
        }
        if self.ep_keyed() {
            k ^= z.ep_file[self.v.geometry.file_of(self.ep) as usize];
        }
        k ^ self.rule_state_key()
    }

    /// The key of the rule state between moves (zero when there is none).
    pub(crate) fn rule_state_key(&self) -> u64 {
        let z = &self.v.zobrist;
        let mut k = 0;
        if self.pending.is_piece() {
            k ^= z.pending(self.pending.0, self.pending_sq);
        }
        for &s in &self.exchanged {
            if s != NO_SQ {
                k ^= z.exchanged(s);
            }
        }
        k
    }

    #[inline]
    fn put(&mut self, sq: u8, p: Piece) {
        self.board[sq as usize] = p;
        self.occ[p.color().index()].insert(sq);
    }

    /// Moves the piece on `from` to the empty square `to`, keeping the key.
    #[inline(always)]
    fn shift(&mut self, from: u8, to: u8, p: Piece) {
        let z = &self.v.zobrist;
        self.board[from as usize] = Piece::EMPTY;
        self.board[to as usize] = p;
        let o = &mut self.occ[p.color().index()];
        o.remove(from);
        o.insert(to);
        let d = z.piece(p.0, from) ^ z.piece(p.0, to);
        self.key ^= d;
        if self.is_pawn(p) {
            self.pawn_key ^= d;
        }
    }

    #[inline(always)]
    pub(crate) fn remove_piece(&mut self, sq: u8) {
        let p = self.board[sq as usize];
        self.board[sq as usize] = Piece::EMPTY;
        self.occ[p.color().index()].remove(sq);
        let d = self.v.zobrist.piece(p.0, sq);
        self.key ^= d;
        if self.is_pawn(p) {
            self.pawn_key ^= d;
        }
    }

    #[inline(always)]
    pub(crate) fn add_piece(&mut self, sq: u8, p: Piece) {
        self.put(sq, p);
        let d = self.v.zobrist.piece(p.0, sq);
        self.key ^= d;
        if self.is_pawn(p) {
            self.pawn_key ^= d;
        }
    }

    /// Plays a legal move in place. To keep the old position, clone first.
    /// With conditions, their after-move effects follow the move itself
    /// (`effects.rs`).
    pub fn play(&mut self, m: Move) {
        if self.v.conditions.is_empty() {
            self.play_move(m);
        } else {
            let before = crate::effects::Before::of(self, m);
            self.play_move(m);
            self.apply_effects(m, &before);
        }
        if self.v.holes.vanish {
            self.vanish(m.from());
        }
        let us = self.side;
        self.side = us.flip();
        self.key ^= self.v.zobrist.side;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
    }

    /// The move itself: pieces, clocks, en passant and castling rights.
    #[inline(always)]
    fn play_move(&mut self, m: Move) {
        let v = self.v;
        let z = &v.zobrist;
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let p = self.board[from as usize];
        let captured = self.board[to as usize];

        self.halfmove = self.halfmove.saturating_add(1);
        if self.ep != NO_SQ {
            if self.ep_keyed() {
                self.key ^= z.ep_file[v.geometry.file_of(self.ep) as usize];
            }
            self.ep = NO_SQ;
        }
        let is_pawn = Some(p.kind()) == v.pawn_kind;
        if is_pawn {
            self.halfmove = 0;
        }

        match m.flag() {
            MoveFlag::CastleKing | MoveFlag::CastleQueen => {
                let wing = if m.flag() == MoveFlag::CastleKing {
                    KING_SIDE
                } else {
                    QUEEN_SIDE
                };
                let rsq = self.castle_rooks[us.index()][wing];
                let (_, rook_to) = castle_targets(v, us, wing);
                let rook = self.board[rsq as usize];
                // Lift both, then place both: squares may overlap (Chess960).
                self.remove_piece(from);
                self.remove_piece(rsq);
                self.add_piece(to, p);
                self.add_piece(rook_to, rook);
            }
            MoveFlag::Passive => {
                for s in self.passive_victims(m).iter() {
                    self.remove_piece(s);
                    if self.royal[us.flip().index()] == s {
                        self.royal[us.flip().index()] = NO_SQ;
                    }
                }
                self.shift(from, to, p);
                self.halfmove = 0;
            }
            MoveFlag::Locust => {
                self.remove_piece(m.locust_square());
                self.shift(from, to, p);
                self.halfmove = 0;
            }
            MoveFlag::Chain => {
                let (victims, end) = self.chain_victims(m);
                for s in victims.iter() {
                    self.remove_piece(s);
                }
                self.shift(from, end, p);
                self.halfmove = 0;
            }
            MoveFlag::EnPassant => {
                let behind = v.steps.step(v.pawn_push[us.flip().index()], to);
                self.remove_piece(behind);
                self.shift(from, to, p);
                self.halfmove = 0;
            }
            MoveFlag::Exchange => {
                // Messigny: the two units change places.
                self.remove_piece(from);
                self.remove_piece(to);
                self.add_piece(from, captured);
                self.add_piece(to, p);
                let them = us.flip().index();
                if self.royal[them] == to {
                    self.royal[them] = from;
                    for w in 0..2 {
                        self.clear_castle(them, w);
                    }
                }
            }
            _ => {
                if captured.is_piece() {
                    self.remove_piece(to);
                    self.halfmove = 0;
                }
                self.shift(from, to, p);
                if let Some(k) = m.promotion() {
                    // A pawn's own promotion; under Circe rules the letter
                    // may instead name what a reborn pawn becomes.
                    if is_pawn && v.geometry.rank_of(to) == v.promotion_rank(us) {
                        self.remove_piece(to);
                        self.add_piece(to, Piece::new(k, us));
                    }
                }
                if m.flag() == MoveFlag::DoubleStep {
                    let mid = v.steps.step(v.pawn_push[us.index()], from);
                    // Only record a target an enemy pawn could take, so
                    // that equal positions have equal keys (as Stockfish).
                    let them = Piece::new(p.kind(), us.flip());
                    let caps = v.pawn_captures[us.index()];
                    let capturable = caps.iter().any(|&d| {
                        let s = v.steps.step(d, mid);
                        s != NO_SQ && self.board[s as usize] == them
                    });
                    if capturable {
                        self.ep = mid;
                        self.key ^= z.ep_file[v.geometry.file_of(mid) as usize];
                    }
                }
            }
        }

        if self.royal[us.index()] == from {
            self.royal[us.index()] = to;
            for w in 0..2 {
                self.clear_castle(us.index(), w);
            }
        }
        for c in 0..2 {
            for w in 0..2 {
                let r = self.castle_rooks[c][w];
                if r == from || r == to {
                    self.clear_castle(c, w);
                }
            }
        }
    }

    /// Could the side that just moved have made a double step over `sq`?
    /// (empty square on its third rank, its pawn just beyond, the start
    /// square behind empty)
    fn ep_possible(&self, sq: u8) -> bool {
        let v = self.v;
        let mover = self.side.flip();
        let Some(pk) = v.pawn_kind else { return false };
        let ahead = v.steps.step(v.pawn_push[mover.index()], sq);
        let behind = v.steps.step(v.pawn_push[self.side.index()], sq);
        v.relative_rank(mover, sq) == 2
            && self.board[sq as usize].is_empty()
            && ahead != NO_SQ
            && self.board[ahead as usize] == Piece::new(pk, mover)
            && behind != NO_SQ
            && self.board[behind as usize].is_empty()
    }

    /// The en-passant square counts in the key only when a pawn can take
    /// there, so that equal positions have equal keys however they arose.
    fn ep_keyed(&self) -> bool {
        let v = self.v;
        let (Some(pk), true) = (v.pawn_kind, self.ep != NO_SQ) else {
            return false;
        };
        let taker = Piece::new(pk, self.side);
        v.pawn_captures[self.side.flip().index()].iter().any(|&d| {
            let s = v.steps.step(d, self.ep);
            s != NO_SQ && self.board[s as usize] == taker
        })
    }

    #[inline]
    pub(crate) fn clear_castle(&mut self, c: usize, w: usize) {
        if self.castle_rooks[c][w] != NO_SQ {
            self.castle_rooks[c][w] = NO_SQ;
            self.key ^= self.v.zobrist.castle[c][w];
        }
    }

    /// Plays a null move (side to move passes), for search.
    pub fn play_null(&mut self) {
        let z = &self.v.zobrist;
        if self.ep != NO_SQ {
            self.key ^= z.ep_file[self.v.geometry.file_of(self.ep) as usize];
            self.ep = NO_SQ;
        }
        self.side = self.side.flip();
        self.key ^= z.side;
        self.halfmove = self.halfmove.saturating_add(1);
    }

    // ---- accessors ----

    pub fn variant(&self) -> &'static Variant {
        self.v
    }
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Zobrist key of the pawns alone (the variant's `pawn_kind`).
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }
    /// The whole board, indexed by square (for `movegen::targets`).
    pub fn board(&self) -> &[Piece; MAX_SQUARES] {
        &self.board
    }

    #[inline]
    pub fn piece_at(&self, sq: u8) -> Piece {
        self.board[sq as usize]
    }
    pub fn occupied(&self, c: Color) -> SquareSet {
        self.occ[c.index()]
    }
    pub fn royal_square(&self, c: Color) -> Option<u8> {
        let s = self.royal[c.index()];
        (s != NO_SQ).then_some(s)
    }
    pub fn ep_square(&self) -> Option<u8> {
        (self.ep != NO_SQ).then_some(self.ep)
    }
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }
    pub fn castle_rook(&self, c: Color, wing: usize) -> Option<u8> {
        let s = self.castle_rooks[c.index()][wing];
        (s != NO_SQ).then_some(s)
    }

    /// Is the side to move's royal piece attacked?
    /// Is the side to move's royal piece in check: could the opponent
    /// capture it under the active rules?
    pub fn in_check(&self) -> bool {
        self.royal_capturable(self.side.flip())
    }

    /// Is the move a capture (en passant, locust and passive captures
    /// included)? A property of the move: passive captures land on empty
    /// squares.
    pub fn is_capture(&self, m: Move) -> bool {
        matches!(
            m.flag(),
            MoveFlag::EnPassant | MoveFlag::Locust | MoveFlag::Passive | MoveFlag::Chain
        ) || (!matches!(m.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen)
            && self.board[m.to() as usize].is_piece())
    }

    /// The squares of the pieces the move captures, before it is played
    /// (a pincer may take four at once; conditions' rebirths aside).
    pub fn captures_of(&self, m: Move) -> SquareSet {
        let mut out = SquareSet::EMPTY;
        match m.flag() {
            MoveFlag::Passive => return self.passive_victims(m),
            MoveFlag::Chain => return self.chain_victims(m).0,
            MoveFlag::Locust => out.insert(m.locust_square()),
            MoveFlag::EnPassant => out.insert(
                self.v
                    .steps
                    .step(self.v.pawn_push[self.side.flip().index()], m.to()),
            ),
            MoveFlag::CastleKing | MoveFlag::CastleQueen | MoveFlag::Exchange => {}
            _ => {
                if self.board[m.to() as usize].is_piece() {
                    out.insert(m.to());
                }
            }
        }
        out
    }

    /// Not enough material for either side to mate (FIDE, chess pieces):
    /// kings alone, a single minor piece, or only bishops on one colour.
    pub fn insufficient_material(&self) -> bool {
        let v = self.v;
        if !v.insufficient_material {
            return false;
        }
        let geo = v.geometry;
        let (mut knights, mut bishops, mut light, mut dark) = (0, 0, 0, 0);
        for sq in self.occ[0].or(self.occ[1]).iter() {
            let p = self.board[sq as usize];
            if Some(p.kind()) == v.royal_kind {
                continue;
            }
            match v.pieces[p.kind() as usize].name.as_str() {
                "knight" => knights += 1,
                "bishop" => {
                    bishops += 1;
                    if (geo.file_of(sq) + geo.rank_of(sq)).is_multiple_of(2) {
                        dark += 1
                    } else {
                        light += 1
                    }
                }
                _ => return false,
            }
        }
        knights + bishops <= 1 || (knights == 0 && (light == 0 || dark == 0))
    }

    // ---- notation ----

    /// A move in the notation of SPEC section 4 (`e2e4`, `e7e8q`, `a1a8s`).
    pub fn move_to_uci(&self, m: Move) -> String {
        let geo = self.v.geometry;
        if m.flag() == MoveFlag::Chain {
            // `d3e3w,e3f4a`: each leg's points and its kind.
            let points = self.chain_points(m);
            let mut s = String::new();
            for (i, leg) in m.legs().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(&geo.square_name(points[i]));
                s.push_str(&geo.square_name(points[i + 1]));
                s.push(if leg.withdrawal { 'w' } else { 'a' });
            }
            return s;
        }
        let mut s = geo.square_name(m.from());
        s.push_str(&geo.square_name(m.to()));
        if let Some(k) = m.promotion() {
            s.push(self.v.pieces[k as usize].letter);
        }
        if let Some(c) = m.flag().suffix() {
            s.push(c);
        }
        s
    }

    /// Parses a move and checks that it is legal here. A turn of several
    /// legs joins them with `,`; a leg without its suffix letter matches a
    /// legal move when only one does.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let geo = self.v.geometry;
        let t = text.trim();
        for leg in t.split(',') {
            let b = leg.as_bytes();
            let Some((_, n1)) = geo.parse_square_prefix(b) else {
                return Err(MoveError::Syntax(t.to_string()));
            };
            let Some((_, n2)) = geo.parse_square_prefix(&b[n1..]) else {
                return Err(MoveError::Syntax(t.to_string()));
            };
            let rest = &leg[n1 + n2..];
            if rest.len() > 2 || !rest.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(MoveError::Syntax(t.to_string()));
            }
        }
        let wanted = t.to_ascii_lowercase();
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut loose = Vec::new();
        for m in list.iter() {
            let s = self.move_to_uci(m);
            if s == wanted {
                return Ok(m);
            }
            if self.matches_without_suffixes(m, &s, &wanted) {
                loose.push(m);
            }
        }
        match loose.len() {
            1 => Ok(loose[0]),
            0 => Err(MoveError::Illegal(t.to_string())),
            _ => Err(MoveError::Ambiguous(t.to_string())),
        }
    }

    /// Does `wanted` name the move written `s`, once the suffix letters it
    /// leaves out are added (leg by leg)?
    fn matches_without_suffixes(&self, m: Move, s: &str, wanted: &str) -> bool {
        let has_suffix = m.flag().suffix().is_some() || m.flag() == MoveFlag::Chain;
        if !has_suffix {
            return false;
        }
        let (mine, theirs): (Vec<&str>, Vec<&str>) =
            (s.split(',').collect(), wanted.split(',').collect());
        mine.len() == theirs.len()
            && mine
                .iter()
                .zip(&theirs)
                .all(|(a, b)| a == b || (a.len() == b.len() + 1 && a.starts_with(b)))
    }

    /// A text diagram of the board, White at the bottom.
    pub fn board_string(&self) -> String {
        let v = self.v;
        let geo = v.geometry;
        let sep = format!(" +{}\n", "---+".repeat(geo.files as usize));
        let mut s = sep.clone();
        for rank in (0..geo.ranks).rev() {
            s.push_str(" |");
            for file in 0..geo.files {
                let p = self.board[geo.square(file, rank) as usize];
                let c = if p == Piece::HOLE {
                    v.hole_char()
                } else if p.is_empty() {
                    ' '
                } else {
                    v.letter(p.kind(), p.color())
                };
                s.push_str(&format!(" {c} |"));
            }
            s.push_str(&format!(" {}\n", rank + 1));
            s.push_str(&sep);
        }
        s.push_str("  ");
        for file in 0..geo.files {
            s.push_str(&format!(" {}  ", (b'a' + file) as char));
        }
        s.push('\n');
        s
    }
}

/// King and rook destination squares of a castling move: the king to the
/// variant's castling file, the rook to the square next to it, inside.
pub fn castle_targets(v: &Variant, c: Color, wing: usize) -> (u8, u8) {
    let geo = v.geometry;
    let back = if c == Color::White { 0 } else { geo.ranks - 1 };
    let kf = v.castling_files[wing];
    let rf = if wing == KING_SIDE { kf - 1 } else { kf + 1 };
    (geo.square(kf, back), geo.square(rf, back))
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.board_string())
    }
}
