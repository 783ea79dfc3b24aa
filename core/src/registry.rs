//! The variants a session knows: the built-ins plus those loaded from
//! variant files (`VariantPath`). A later definition of a name replaces an
//! earlier one; sections may inherit from variants of files loaded before.

use crate::variant::{self, Variant, VariantSpec};
use crate::variant_file::{self, VariantFileError};

/// Built-in and loaded variants, by name.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    loaded: Vec<(String, &'static Variant, VariantSpec)>,
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Every variant name: the built-ins, then the loaded ones.
    pub fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = variant::builtin_names()
            .iter()
            .map(|s| s.to_string())
            .collect();
        for (n, _, _) in &self.loaded {
            if !out.contains(n) {
                out.push(n.clone());
            }
        }
        out
    }

    /// A variant by name (case-insensitive); loaded ones win over built-ins.
    pub fn get(&self, name: &str) -> Option<&'static Variant> {
        self.loaded
            .iter()
            .rev()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v, _)| *v)
            .or_else(|| variant::builtin(name))
    }

    /// The specification of a variant by name (loaded ones win over
    /// built-ins), to derive others from (the `Conditions` option).
    pub fn spec(&self, name: &str) -> Option<VariantSpec> {
        self.loaded
            .iter()
            .rev()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, _, s)| s.clone())
            .or_else(|| variant::builtin_spec(name))
    }

    /// Checks a variant file's text as `load` would, without keeping it:
    /// per section, a description of the variant or the error.
    pub fn check(&self, file: &str, text: &str) -> Vec<Result<String, VariantFileError>> {
        let mut scratch = self.clone();
        scratch
            .load(file, text)
            .into_iter()
            .map(|r| r.map(|name| variant_file::describe(scratch.get(&name).expect("just loaded"))))
            .collect()
    }

    /// Loads a variant file's text. Returns, per section, the name loaded or
    /// the error; the good sections are kept whatever the others do.
    pub fn load(&mut self, file: &str, text: &str) -> Vec<Result<String, VariantFileError>> {
        let known = |p: &str| {
            self.loaded
                .iter()
                .rev()
                .find(|(n, _, _)| n.eq_ignore_ascii_case(p))
                .map(|(_, _, s)| s.clone())
        };
        let sections = variant_file::load(file, text, &known);
        let mut out = Vec::new();
        for s in sections {
            match (s.result, s.spec) {
                (Ok(v), Some(spec)) => {
                    self.loaded.retain(|(n, _, _)| n != &s.name);
                    self.loaded.push((s.name.clone(), v, spec));
                    out.push(Ok(s.name));
                }
                (Err(e), _) => out.push(Err(e)),
                (Ok(_), None) => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_inherits_across_files_and_keeps_good_sections() {
        let mut r = Registry::new();
        let res = r.load(
            "a.ini",
            "[zebra-chess:chess]\npiece.z = zebra\n[broken:chess]\nnope = 1\n",
        );
        assert!(res[0].is_ok());
        assert_eq!(res[1].as_ref().unwrap_err().line, 4);
        // A second file inherits from the first file's variant.
        let res = r.load("b.ini", "[big-zebra:zebra-chess]\nfiles = 10\nstart = rnbqkbnrzz/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRZZ w KQkq - 0 1\n");
        assert!(res[0].is_ok(), "{res:?}");
        let names = r.names();
        let builtins = variant::builtin_names().len();
        assert_eq!(&names[..3], ["chess", "wormhole", "baroque"]);
        assert_eq!(&names[builtins..], ["zebra-chess", "big-zebra"]);
        assert_eq!(r.get("BIG-ZEBRA").unwrap().geometry.files, 10);
        assert!(r.get("chess").is_some());
        assert!(r.get("broken").is_none());
    }
}
