//! fers-book: opening books. Polyglot `.bin` for chess and fers books for
//! every variant arrive with the book issue; this crate holds their place in
//! the workspace so the layout of SPEC section 1 is fixed from the start.
