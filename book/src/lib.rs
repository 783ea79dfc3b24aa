//! fers-book: opening books. Polyglot `.bin` books for orthodox chess
//! ([`polyglot`]): keys, lookup, move decoding and random exits; fers books
//! for every variant ([`fers`]): keyed by the variant's own Zobrist key,
//! moves in SPEC notation, looked up in the file by binary search. [`any`]
//! opens either, telling them apart by their content.

pub mod any;
pub mod build;
pub mod fers;
pub mod polyglot;
pub mod polyglot_random;
