//! The Fairy-Stockfish reference variants (shared/ref/fsf, copied into
//! `tests/data/`): both files load unchanged, in both formats, and give the
//! reference root moves and perft counts. The default run goes to the depth
//! whose count is at most ~2M nodes; `--ignored` runs every depth.

use fers_core::variant::{self, Variant};
use fers_core::variant_file::{self, Section};
use fers_core::{perft, MoveList, Position};
use std::collections::HashMap;

const FSF_FILE: &str = include_str!("data/fsf-variants.ini");
const FERS_FILE: &str = include_str!("data/fers-variants.ini");
const CASES: &str = include_str!("data/fairy.perft");

fn load(name: &str, text: &str) -> HashMap<String, &'static Variant> {
    let sections: Vec<Section> = variant_file::load(name, text, &|_| None);
    let mut out = HashMap::new();
    for s in sections {
        match s.result {
            Ok(v) => {
                out.insert(s.name, v);
            }
            Err(e) => panic!("{e}"),
        }
    }
    out
}

struct Case {
    variant: String,
    fen: String,
    root: Vec<String>,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    CASES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            Case {
                variant: f[0].into(),
                fen: f[1].into(),
                root: f[2].split_whitespace().map(String::from).collect(),
                counts: f[3..].iter().map(|n| n.parse().unwrap()).collect(),
            }
        })
        .collect()
}

/// The FSF file uses the letter x where the fers file (and the cases) use f.
fn fsf_letters(fen: &str) -> String {
    fen.chars()
        .map(|c| match c {
            'f' => 'x',
            'F' => 'X',
            c => c,
        })
        .collect()
}

fn run(max_nodes: u64) {
    let fers = load("fers-variants.ini", FERS_FILE);
    let fsf = load("variants.ini", FSF_FILE);
    for c in cases() {
        for (file, v, fen) in [
            ("fers", fers[&c.variant], c.fen.clone()),
            (
                "fsf",
                fsf[&c.variant],
                if c.variant == "fsf-linehoppers" {
                    fsf_letters(&c.fen)
                } else {
                    c.fen.clone()
                },
            ),
        ] {
            let pos = Position::from_fen(v, &fen).unwrap_or_else(|e| panic!("{}: {e}", c.variant));
            let mut l = MoveList::new();
            pos.legal_moves(&mut l);
            let mut got: Vec<String> = l.iter().map(|m| pos.move_to_uci(m)).collect();
            got.sort();
            let mut want = c.root.clone();
            want.sort();
            if file == "fers" || c.variant != "fsf-linehoppers" {
                assert_eq!(got, want, "{} ({file} file): root moves", c.variant);
            }
            for (i, &n) in c.counts.iter().enumerate() {
                if n > max_nodes {
                    break;
                }
                let d = i as u32 + 1;
                assert_eq!(
                    perft::perft(&pos, d),
                    n,
                    "{} ({file} file) perft {d}",
                    c.variant
                );
            }
        }
    }
}

#[test]
fn reference_variants_match_fairy_stockfish() {
    run(2_000_000);
}

#[test]
#[ignore]
fn reference_variants_match_fairy_stockfish_full_depth() {
    run(u64::MAX);
}

/// The same variants with pin legality off: every move tested on a copy.
#[test]
fn general_legality_path_gives_the_same_numbers() {
    let sections = variant_file::load("fers-variants.ini", FERS_FILE, &|_| None);
    for c in cases() {
        let spec = sections
            .iter()
            .find(|s| s.name == c.variant)
            .and_then(|s| s.spec.clone())
            .unwrap();
        let mut v = Variant::build(spec).unwrap();
        v.caps.pin_legality = false;
        let v = variant::leak(v);
        let pos = Position::from_fen(v, &c.fen).unwrap();
        for (i, &n) in c
            .counts
            .iter()
            .enumerate()
            .take_while(|(_, &n)| n <= 300_000)
        {
            assert_eq!(
                perft::perft(&pos, i as u32 + 1),
                n,
                "{} general path perft {}",
                c.variant,
                i + 1
            );
        }
    }
}

#[test]
fn bad_sections_fail_alone_with_file_and_line() {
    let text = "\
[good:chess]   ; a comment after the header
piece.z = leaper(2,3)   # zebra
start = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1

[badkey:chess]
colour = blue

[badpiece:chess]
piece.z = warper(1,2)

[badfen:chess]
start = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNY w KQkq - 0 1

[orphan:nosuchparent]

[child:good]
files = 10
start = rnbqkbnrzz/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRZZ w KQkq - 0 1

[big:chess]
files = 13
";
    let sections = variant_file::load("my.ini", text, &|_| None);
    let by_name: HashMap<&str, &Section> = sections.iter().map(|s| (s.name.as_str(), s)).collect();
    assert!(by_name["good"].result.is_ok());
    assert!(
        by_name["child"].result.is_ok(),
        "{:?}",
        by_name["child"].result
    );
    for (name, line, words) in [
        ("badkey", 6, "unknown key 'colour'"),
        ("badpiece", 9, "unknown movement family 'warper'"),
        ("badfen", 12, "unknown piece letter 'Y'"),
        ("orphan", 14, "unknown parent variant 'nosuchparent'"),
        ("big", 20, "13x8"),
    ] {
        let e = by_name[name].result.as_ref().expect_err(name);
        assert_eq!((e.file.as_str(), e.line), ("my.ini", line), "{name}: {e}");
        assert!(e.reason.contains(words), "{name}: {e}");
        assert!(e.to_string().starts_with(&format!("my.ini:{line}: ")));
    }
    // Inheritance from a section of the same file: the zebra came along.
    let child = by_name["child"].result.as_ref().unwrap();
    assert_eq!(child.geometry.files, 10);
    assert!(child.kind_of_letter('z').is_some());
    let _ = variant::chess();
}

/// `value.<letter>`: a piece's material value set by the file (for example
/// fitted by `fers-tune -values`), kept by child sections, dropped when the
/// piece is redefined, and refused with the line's reason when malformed.
#[test]
fn piece_values_from_a_variant_file() {
    let text = "\
[v:chess]
piece.z = leaper(2,3)
value.z = 310 290
value.q = 950
start = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1

[kept:v]

[redefined:v]
piece.z = leaper(1,3)

[cleared:v]
value.q = -

[undefined:chess]
value.z = 300

[words:chess]
value.q = nine

[three:chess]
value.q = 1 2 3

[negative:chess]
value.q = -5
";
    let sections = variant_file::load("my.ini", text, &|_| None);
    let by_name: HashMap<&str, &Section> = sections.iter().map(|s| (s.name.as_str(), s)).collect();
    let value = |name: &str, letter: char| {
        let v = by_name[name]
            .result
            .as_ref()
            .unwrap_or_else(|e| panic!("{e}"));
        v.pieces[v.kind_of_letter(letter).unwrap() as usize].value
    };
    assert_eq!(value("v", 'z'), Some((310, 290)));
    assert_eq!(value("v", 'q'), Some((950, 950)));
    assert_eq!(value("v", 'r'), None);
    assert_eq!(value("kept", 'z'), Some((310, 290)));
    assert_eq!(value("redefined", 'z'), None);
    assert_eq!(value("redefined", 'q'), Some((950, 950)));
    assert_eq!(value("cleared", 'q'), None);
    for (name, line, words) in [
        ("undefined", 16, "value for 'z', which is not defined"),
        ("words", 19, "value 'nine' is not"),
        ("three", 22, "value '1 2 3' is not"),
        ("negative", 25, "value '-5' is not"),
    ] {
        let e = by_name[name].result.as_ref().expect_err(name);
        assert_eq!((e.file.as_str(), e.line), ("my.ini", line), "{name}: {e}");
        assert!(e.reason.contains(words), "{name}: {e}");
    }
}

/// `network = PATH`: a relative path is read from the variant file's
/// directory, an absolute one as given; a child section does not inherit
/// it (a network is for one variant name); `-` drops it; an empty value is
/// refused with the line's reason.
#[test]
fn network_key_of_a_variant_file() {
    let text = "\
[netted:chess]
network = nets/netted.nnue

[child:netted]

[absolute:chess]
network = /srv/nets/a.nnue

[dropped:chess]
network = x.nnue
network = -

[empty:chess]
network =
";
    let sections = variant_file::load("dir/my.ini", text, &|_| None);
    let by_name: HashMap<&str, &Section> = sections.iter().map(|s| (s.name.as_str(), s)).collect();
    let network = |name: &str| {
        by_name[name]
            .result
            .as_ref()
            .unwrap_or_else(|e| panic!("{e}"))
            .network
            .clone()
    };
    let joined = std::path::Path::new("dir").join("nets/netted.nnue");
    assert_eq!(
        network("netted"),
        Some(joined.to_string_lossy().into_owned())
    );
    assert_eq!(network("child"), None);
    assert_eq!(network("absolute"), Some("/srv/nets/a.nnue".to_string()));
    assert_eq!(network("dropped"), None);
    let e = by_name["empty"].result.as_ref().expect_err("empty");
    assert_eq!((e.file.as_str(), e.line), ("dir/my.ini", 14), "{e}");
    assert!(e.reason.contains("network needs a file name"), "{e}");
    // Built-in variants name no network file.
    assert_eq!(variant::chess().network, None);
}

/// `Variant::file_mirror_symmetric`: chess and Capablanca look the same
/// mirrored left to right (a trainer may use both images of a position
/// without castling rights); a piece that leaps only to one side, holes,
/// conditions, passive captures and capture chains do not.
#[test]
fn file_mirror_symmetry_of_the_rules() {
    let text = "\
[capa:chess]
files = 10
piece.a = betza:BN
piece.c = betza:RN
start = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
castlingKingsideFile = i
castlingQueensideFile = c

[righty:chess]
piece.z = betza:frN
start = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1

[both:chess]
piece.z = betza:frNflN
start = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1

[circe:chess]
conditions = circe
";
    let sections = variant_file::load("m.ini", text, &|_| None);
    let by_name: HashMap<&str, &Section> = sections.iter().map(|s| (s.name.as_str(), s)).collect();
    let sym = |name: &str| {
        by_name[name]
            .result
            .as_ref()
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .file_mirror_symmetric()
    };
    assert!(variant::chess().file_mirror_symmetric());
    assert!(sym("capa"));
    assert!(!sym("righty"));
    assert!(sym("both"));
    assert!(!sym("circe"));
    for name in ["wormhole", "baroque", "fanorona"] {
        let v = variant::builtin(name).unwrap_or_else(|| panic!("{name}"));
        assert!(!v.file_mirror_symmetric(), "{name}");
    }
}
