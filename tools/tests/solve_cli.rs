//! `fers-solve` from its command line to its output: a Popeye input file,
//! a FEN with conditions, JSON, and refusals. The expected keys, threats,
//! defences and tries are Popeye's (its example problems, solved by
//! Popeye 4.104 in `shared/ref/popeye/problems-sample.json`).

use fers_tools::solve::cli::{command, jobs, run_job};

fn run(args: &[&str]) -> Result<Vec<String>, String> {
    let mut argv = vec!["fers-solve"];
    argv.extend_from_slice(args);
    let m = command()
        .try_get_matches_from(argv)
        .map_err(|e| e.to_string())?;
    let json = m.get_flag("json");
    let jobs = jobs(&m).map_err(|e| e.to_string())?;
    jobs.iter()
        .map(|j| run_job(j, json, None).map_err(|e| e.to_string()))
        .collect()
}

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn solves_a_popeye_file_in_popeyes_layout() {
    let out = run(&[&data("popeye-sample.inp")]).unwrap();
    assert_eq!(out.len(), 2);
    let a = &out[0];
    assert!(
        a.contains("   1.Be3-g5 ! threat:\n          2.e2-e4 #\n"),
        "{a}"
    );
    assert!(
        a.contains("      1...Sc1*e2\n          2.Se2-g3 #\n"),
        "{a}"
    );
    assert!(a.contains("solution finished. Time = "), "{a}");
    let b = &out[1];
    assert!(
        b.contains("   1.Sc1*d3 ! threat:\n          2.Sd3-c5 #\n"),
        "{b}"
    );
    assert!(b.contains("   1.Sc1-e2 ?"), "{b}");
    assert!(b.contains("    but\n      1...Qf3*e4 !\n"), "{b}");
    assert!(
        b.contains("   1.Rd4*c4 + ?\n    but\n      1...Re1*e4 !\n"),
        "{b}"
    );
}

#[test]
fn answers_json_for_a_fen() {
    let out = run(&[
        "--fen",
        "2B1Q3/4pp2/8/1K6/R5N1/8/3p1Bp1/7k w - - 0 1",
        "--conditions",
        "messigny",
        "--stip",
        "#2",
        "--json",
    ])
    .unwrap();
    let j = &out[0];
    assert!(
        j.starts_with('{') && j.ends_with('}') && !j.contains('\n'),
        "{j}"
    );
    assert!(j.contains("\"keys\":[\"c8d7\"]"), "{j}");
    assert!(j.contains("\"threats\":[\"e8h8\"]"), "{j}");
    assert!(j.contains("\"tries\":["), "{j}");
    assert!(
        j.contains("\"seconds\":") && j.contains("\"nodes\":"),
        "{j}"
    );
}

#[test]
fn help_mates_list_every_solution() {
    // Hand-verified (core/tests/data/problems.txt): two solutions.
    let out = run(&[
        "--fen",
        "8/8/8/8/8/5R2/5K1k/5R2 w - - 0 1",
        "--stip",
        "h#1.5",
    ])
    .unwrap();
    assert!(
        out[0].contains("  1...Rf1-h1 +   2.Kh2*h1 Rf3-h3 #\n"),
        "{}",
        out[0]
    );
    assert!(
        out[0].contains("  1...Rf3-f4   2.Kh2-h3 Rf1-h1 #\n"),
        "{}",
        out[0]
    );
    // The stipulation sets the side to move (Black starts an h#N).
    let out = run(&[
        "--fen",
        "7k/8/6K1/8/8/8/8/R7 w - - 0 1",
        "--stip",
        "h#1",
        "--json",
    ])
    .unwrap();
    assert!(
        out[0].contains("\"solutions\":[\"h8g8 a1a8\"]"),
        "{}",
        out[0]
    );
}

#[test]
fn refuses_bad_input_with_a_reason() {
    for (args, needle) in [
        (vec!["--fen", "not a fen", "--stip", "#2"], "FEN"),
        (
            vec!["--fen", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "--stip", "#x"],
            "stipulation",
        ),
        (vec!["--fen", "7k/8/6K1/8/8/8/8/R7 w - - 0 1"], "--stip"),
        (
            vec![
                "--fen",
                "7k/8/6K1/8/8/8/8/R7 w - - 0 1",
                "--stip",
                "#1",
                "--conditions",
                "circe anticirce",
            ],
            "conditions",
        ),
        (
            vec![
                "--fen",
                "7k/8/6K1/8/8/8/8/R7 w - - 0 1",
                "--stip",
                "#1",
                "--variant",
                "nosuch",
            ],
            "unknown variant",
        ),
        (vec!["/nonexistent/file.inp"], "cannot read"),
        (vec![], "give a Popeye FILE"),
    ] {
        match run(&args) {
            Ok(o) => panic!("{args:?} accepted: {o:?}"),
            Err(e) => assert!(e.contains(needle), "{args:?}: {e}"),
        }
    }
}
