//! Engine options as data: their names, types, defaults and value checking.
//!
//! The table is protocol-independent: UCI prints it as `option name ...`
//! lines, USI as the same with `usi` wording, XBoard as `feature option=...`.
//! Adding an option means adding an [`OptionId`], a row in [`definitions`]
//! and its effect in `Engine::set_option`.

use fers_core::variant;

/// Which option a definition is, so that the engine dispatches on an enum
/// rather than on strings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionId {
    /// The game being played (SPEC section 2).
    UciVariant,
    /// A variant file whose variants join `UCI_Variant` (SPEC section 5).
    VariantPath,
    /// Fairy conditions (seed 003) played on top of the selected variant,
    /// space-separated.
    Conditions,
    /// Chess960 castling: X-FEN/Shredder-FEN rights, king-takes-rook moves.
    UciChess960,
    /// Transposition table size in MB.
    Hash,
    /// Search threads (Lazy SMP).
    Threads,
    /// Number of principal variations reported.
    MultiPv,
    /// The GUI may send `go ponder` (the engine needs nothing else).
    Ponder,
    /// Milliseconds kept back on every move for transmission delays.
    MoveOverhead,
    /// Empties the transposition table.
    ClearHash,
    /// Evaluate orthodox chess with the learned network (else the
    /// hand-written evaluation).
    UseNnue,
    /// A network file trained for the variant played (`fers-nnue`);
    /// empty: the embedded network where one applies.
    EvalFile,
    /// Play book moves while the position is in the book.
    OwnBook,
    /// The book: Polyglot `.bin` or fers book, told apart by content.
    BookFile,
    /// Plies of the game in which the book is asked.
    BookDepth,
    /// `Best` (largest weight) or `Weighted` (random by weight).
    BookVariety,
}

/// Largest `Hash` value (MB), as Stockfish allows; a size the machine
/// cannot give is refused when it is set.
pub const MAX_HASH_MB: i64 = 33_554_432;
/// Default `Hash` (MB).
pub const DEFAULT_HASH_MB: i64 = 16;
/// Default `Move Overhead` (ms).
pub const DEFAULT_MOVE_OVERHEAD: i64 = 30;

/// The type of an option and its limits, as UCI names them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    /// `vars` lists the values a GUI offers; [`OptionDef::parse_value`]
    /// accepts them in any letter case.
    Combo {
        default: String,
        vars: Vec<String>,
    },
    String {
        default: String,
    },
    Button,
}

/// One option: its name as GUIs show it, and its type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OptionDef {
    pub id: OptionId,
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A checked option value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionValue {
    Check(bool),
    Spin(i64),
    /// The combo entry as it is spelt in the list (canonical case).
    Combo(String),
    String(String),
    Button,
}

/// Every option the engine offers, in the order GUIs list them, with the
/// built-in variants in `UCI_Variant`.
pub fn definitions() -> Vec<OptionDef> {
    let names: Vec<String> = variant::builtin_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    definitions_with(&names)
}

/// The options with `variants` (built-in and loaded) in `UCI_Variant`.
pub fn definitions_with(variants: &[String]) -> Vec<OptionDef> {
    vec![
        OptionDef {
            id: OptionId::UciVariant,
            name: "UCI_Variant",
            kind: OptionKind::Combo {
                default: variant::chess().name.clone(),
                vars: variants.to_vec(),
            },
        },
        OptionDef {
            id: OptionId::UciChess960,
            name: "UCI_Chess960",
            kind: OptionKind::Check { default: false },
        },
        OptionDef {
            id: OptionId::Conditions,
            name: "Conditions",
            kind: OptionKind::String {
                default: String::new(),
            },
        },
        OptionDef {
            id: OptionId::VariantPath,
            name: "VariantPath",
            kind: OptionKind::String {
                default: String::new(),
            },
        },
        OptionDef {
            id: OptionId::Hash,
            name: "Hash",
            kind: OptionKind::Spin {
                default: DEFAULT_HASH_MB,
                min: 1,
                max: MAX_HASH_MB,
            },
        },
        OptionDef {
            id: OptionId::Threads,
            name: "Threads",
            kind: OptionKind::Spin {
                default: 1,
                min: 1,
                max: 1024,
            },
        },
        OptionDef {
            id: OptionId::MultiPv,
            name: "MultiPV",
            kind: OptionKind::Spin {
                default: 1,
                min: 1,
                max: 500,
            },
        },
        OptionDef {
            id: OptionId::Ponder,
            name: "Ponder",
            kind: OptionKind::Check { default: false },
        },
        OptionDef {
            id: OptionId::MoveOverhead,
            name: "Move Overhead",
            kind: OptionKind::Spin {
                default: DEFAULT_MOVE_OVERHEAD,
                min: 0,
                max: 5000,
            },
        },
        OptionDef {
            id: OptionId::ClearHash,
            name: "Clear Hash",
            kind: OptionKind::Button,
        },
        OptionDef {
            id: OptionId::UseNnue,
            name: "Use NNUE",
            kind: OptionKind::Check { default: true },
        },
        OptionDef {
            id: OptionId::EvalFile,
            name: "EvalFile",
            kind: OptionKind::String {
                default: String::new(),
            },
        },
        OptionDef {
            id: OptionId::OwnBook,
            name: "OwnBook",
            kind: OptionKind::Check { default: false },
        },
        OptionDef {
            id: OptionId::BookFile,
            name: "BookFile",
            kind: OptionKind::String {
                default: String::new(),
            },
        },
        OptionDef {
            id: OptionId::BookDepth,
            name: "BookDepth",
            kind: OptionKind::Spin {
                default: crate::book::DEFAULT_BOOK_DEPTH,
                min: 0,
                max: 1000,
            },
        },
        OptionDef {
            id: OptionId::BookVariety,
            name: "BookVariety",
            kind: OptionKind::Combo {
                default: crate::book::VARIETY_WEIGHTED.into(),
                vars: vec![
                    crate::book::VARIETY_BEST.into(),
                    crate::book::VARIETY_WEIGHTED.into(),
                ],
            },
        },
    ]
}

/// The option of that name. UCI says option names are not case sensitive.
pub fn find(name: &str) -> Option<OptionDef> {
    definitions()
        .into_iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
}

impl OptionDef {
    /// Checks a value given by a GUI (`None` when `value` was absent) against
    /// the option's type. Errors say why in words, for `info string error:`.
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, String> {
        let name = self.name;
        let required = || value.ok_or_else(|| format!("option {name} needs a value"));
        match &self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            // "<empty>" is how UCI GUIs send an empty string.
            OptionKind::String { .. } => Ok(OptionValue::String(match value {
                None | Some("<empty>") => String::new(),
                Some(v) => v.to_string(),
            })),
            OptionKind::Check { .. } => {
                let v = required()?;
                match v.to_ascii_lowercase().as_str() {
                    "true" => Ok(OptionValue::Check(true)),
                    "false" => Ok(OptionValue::Check(false)),
                    _ => Err(format!("option {name} is true or false, not '{v}'")),
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let v = required()?;
                match v.parse::<i64>() {
                    Ok(n) if (*min..=*max).contains(&n) => Ok(OptionValue::Spin(n)),
                    _ => Err(format!(
                        "option {name} takes a whole number from {min} to {max}, not '{v}'"
                    )),
                }
            }
            OptionKind::Combo { vars, .. } => {
                let v = required()?;
                vars.iter()
                    .find(|x| x.eq_ignore_ascii_case(v))
                    .map(|x| OptionValue::Combo(x.clone()))
                    .ok_or_else(|| {
                        format!(
                            "option {name} has no value '{v}' (one of: {})",
                            vars.join(" ")
                        )
                    })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(kind: OptionKind) -> OptionDef {
        OptionDef {
            id: OptionId::UciVariant,
            name: "X",
            kind,
        }
    }

    #[test]
    fn uci_variant_lists_every_builtin() {
        let d = find("uci_variant").expect("case-insensitive lookup");
        assert_eq!(d.id, OptionId::UciVariant);
        match d.kind {
            OptionKind::Combo { default, vars } => {
                assert_eq!(default, "chess");
                assert_eq!(vars.len(), variant::builtin_names().len());
            }
            other => panic!("UCI_Variant is a combo, got {other:?}"),
        }
        assert_eq!(find("hash").map(|d| d.id), Some(OptionId::Hash));
        assert_eq!(
            find("move overhead").map(|d| d.id),
            Some(OptionId::MoveOverhead)
        );
        assert_eq!(find("MULTIPV").map(|d| d.id), Some(OptionId::MultiPv));
    }

    #[test]
    fn values_are_checked_by_type() {
        let combo = def(OptionKind::Combo {
            default: "a".into(),
            vars: vec!["Alpha".into(), "beta".into()],
        });
        assert_eq!(
            combo.parse_value(Some("ALPHA")),
            Ok(OptionValue::Combo("Alpha".into()))
        );
        assert!(combo.parse_value(Some("gamma")).is_err());
        assert!(combo.parse_value(None).is_err());

        let spin = def(OptionKind::Spin {
            default: 1,
            min: 1,
            max: 64,
        });
        assert_eq!(spin.parse_value(Some("64")), Ok(OptionValue::Spin(64)));
        for bad in ["0", "65", "-1", "1.5", "99999999999999999999999", ""] {
            assert!(spin.parse_value(Some(bad)).is_err(), "{bad}");
        }

        let check = def(OptionKind::Check { default: false });
        assert_eq!(
            check.parse_value(Some("True")),
            Ok(OptionValue::Check(true))
        );
        assert!(check.parse_value(Some("yes")).is_err());

        let string = def(OptionKind::String {
            default: String::new(),
        });
        assert_eq!(
            string.parse_value(Some("<empty>")),
            Ok(OptionValue::String(String::new()))
        );
        assert_eq!(
            string.parse_value(Some("a b")),
            Ok(OptionValue::String("a b".into()))
        );
        assert_eq!(
            def(OptionKind::Button).parse_value(None),
            Ok(OptionValue::Button)
        );
    }
}
