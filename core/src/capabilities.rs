//! Which shortcuts are sound in a variant: one set, derived once by
//! `Variant::build` from the pieces and the rules, read by the core, the
//! search and the evaluation. Nothing else asks "is this orthodox?".
//!
//! Each flag names a shortcut and is true only when the variant's data
//! proves it sound. A rule the derivation does not know about must clear
//! every flag (see [`Capabilities::NONE`]), so correctness is the default
//! and speed is what a rule earns by being understood.

/// The shortcuts a variant allows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Capabilities {
    /// Legality by pins and check masks, without playing the move: one
    /// royal kind, and no rule that changes the board beyond the move or
    /// changes what gives check.
    pub pin_legality: bool,
    /// Legality judged on a board copy with only the move's own squares
    /// changed (its start square a hole under vanishing squares), without
    /// `Position::play`: no condition's effects change the board beyond
    /// the move.
    pub board_copy_legality: bool,
    /// Legality under hole-skipping movement by the lines from the royal
    /// piece (`wormhole.rs`): pieces never block there, so out of check
    /// only a move of the royal piece, or one that vacates a square on a
    /// line an attacker's walk takes, can expose it. One royal kind, no
    /// conditions or capture styles.
    pub hole_legality: bool,
    /// The search tests legality lazily: it takes the pseudo-legal moves
    /// (`Position::candidate_moves`) and tests only those it tries, after
    /// playing them (`Position::candidate_legal`), where testing the whole
    /// list costs an attack detection per move (no `pin_legality`). Sound
    /// everywhere (the test is `legal_moves`' own); a speed choice, so a
    /// variant whose list is cheap to filter keeps the filtered list.
    pub lazy_legality: bool,
    /// Under `pin_legality`, out of check: the search's lists are not
    /// filtered at all, and a move tried is legal unless it is the royal
    /// piece's (tested by `legal_after`) or leaves the line from the royal
    /// piece through its start square open to an enemy rider
    /// (`Variant::pin_lines`). Simple pieces only (no hopper or lame
    /// attacker to open a line elsewhere), a plain board, no conditions,
    /// and no two riders whose steps are multiples of each other's (so a
    /// square is on at most one line from another).
    pub lazy_pins: bool,
    /// Castling judged from the attack plan (leapers, riders and pawns
    /// only: moving the rook cannot open a hurdle line).
    pub simple_castling: bool,
    /// "In check" is "attacked by the attack plan": no condition filters
    /// or moves the attackers.
    pub plain_check: bool,
    /// Static exchange sees every attacker and every capture removes just
    /// its victim.
    pub exact_see: bool,
    /// A capture takes material off the board for good (no rebirth, no
    /// colour change, no unit appearing after a move), so capture
    /// sequences end by themselves: quiescence needs no depth limit.
    pub captures_simplify: bool,
    /// No position before the last reset of the move-rule clock (a
    /// capture, a pawn's move) can occur again, so repetitions are looked
    /// for since then only. Not where captures bring units back (Circe
    /// rules), change their colour, or add units, nor under Messigny and
    /// Messigny rex exclusiv, whose exchanges move pawns backwards and
    /// swap units back.
    pub clock_bounds_repetition: bool,
    /// Passing is never better than moving in the positions the search
    /// meets often (null-move pruning): a royal piece, stalemate a draw,
    /// and no rule whose state a null move would skip.
    pub null_move: bool,
    /// Orthodox chess exactly, so the chess network applies.
    pub chess_network: bool,
    /// The pieces on the squares describe the board, so a network whose
    /// inputs are (colour, kind, square) can be trained and used for the
    /// variant (`EvalFile`): every square is a square (no holes, which no
    /// input could show).
    pub piece_network: bool,
    /// The evaluation's empty-board check pre-filter is exact: every
    /// family is a leaper, rider or pawn, and check is plain.
    pub check_filter: bool,
}

impl Capabilities {
    /// No shortcut at all: the general path everywhere.
    pub const NONE: Capabilities = Capabilities {
        pin_legality: false,
        board_copy_legality: false,
        hole_legality: false,
        lazy_legality: false,
        lazy_pins: false,
        simple_castling: false,
        plain_check: false,
        exact_see: false,
        captures_simplify: false,
        clock_bounds_repetition: false,
        null_move: false,
        chess_network: false,
        piece_network: false,
        check_filter: false,
    };
}
