//! The solver against problems with published or hand-verified solutions
//! (`data/problems.txt`: Popeye's solutions of its example problems, and
//! problems whose solutions are derived by hand in their comments). Every
//! key, every single-refutation try, the threat and every help-mate
//! solution must be exactly the expected ones.

use fers_core::solve::{solve, Aim, Stipulation};
use fers_core::{variant, Conditions, Position, Variant};
use std::collections::{BTreeMap, BTreeSet};

fn variant_with(conditions: &str) -> &'static Variant {
    if conditions.trim().is_empty() {
        return variant::chess();
    }
    let mut spec = variant::chess_spec();
    spec.conditions = conditions.parse::<Conditions>().expect("conditions");
    spec.name = format!("chess+{conditions}");
    variant::leak(Variant::build(spec).expect("variant"))
}

fn set(text: &str) -> BTreeSet<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// The problems of the data file: name and fields.
fn problems() -> Vec<(String, BTreeMap<String, String>)> {
    let text = include_str!("data/problems.txt");
    let mut out: Vec<(String, BTreeMap<String, String>)> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            out.push((name.to_string(), BTreeMap::new()));
        } else if let Some((k, v)) = line.split_once('=') {
            let (_, fields) = out.last_mut().expect("a field before the first section");
            fields.insert(k.trim().to_string(), v.trim().to_string());
        } else {
            panic!("bad line {line}");
        }
    }
    out
}

fn check(name: &str, f: &BTreeMap<String, String>) -> Result<(), String> {
    let v = variant_with(f.get("conditions").map(String::as_str).unwrap_or(""));
    let pos = Position::from_fen(v, &f["fen"]).map_err(|e| e.to_string())?;
    let stip: Stipulation = f["stip"].parse().map_err(|e| format!("{e}"))?;
    let sol = solve(&pos, stip, &|| false).map_err(|e| e.to_string())?;
    let name_of = |m| pos.move_to_uci(m);
    let keys: BTreeSet<String> = sol.keys().into_iter().map(name_of).collect();
    let want = if f["keys"] == "none" {
        BTreeSet::new()
    } else {
        set(&f["keys"])
    };
    let mut errs = Vec::new();
    if keys != want {
        errs.push(format!("keys {keys:?}, expected {want:?}"));
    }
    if let Some(t) = f.get("tries") {
        let tries: BTreeSet<String> = sol
            .tries()
            .into_iter()
            .map(|(t, r)| {
                let mut after = pos.clone();
                after.play(t);
                format!("{}:{}", pos.move_to_uci(t), after.move_to_uci(r))
            })
            .collect();
        if tries != set(t) {
            errs.push(format!("tries {tries:?}, expected {:?}", set(t)));
        }
    }
    if let Some(t) = f.get("threat") {
        if let Some(c) = sol.candidates.iter().find(|c| c.key) {
            let mut after = pos.clone();
            after.play(c.mv);
            let threats: BTreeSet<String> = c
                .tree
                .as_ref()
                .and_then(|t| t.threats.as_ref())
                .into_iter()
                .flatten()
                .map(|l| {
                    let mut passed = after.clone();
                    passed.play_null();
                    passed.move_to_uci(l.mv)
                })
                .collect();
            if threats != set(t) {
                errs.push(format!("threat {threats:?}, expected {:?}", set(t)));
            }
        }
    }
    if let Some(s) = f.get("solutions") {
        assert_eq!(stip.aim, Aim::Help, "{name}: solutions are for help-mates");
        let lines: BTreeSet<String> = sol
            .help_lines
            .iter()
            .map(|l| {
                let mut p = pos.clone();
                let mut words = Vec::new();
                for &m in l {
                    words.push(p.move_to_uci(m));
                    p.play(m);
                }
                words.join(" ")
            })
            .collect();
        let want: BTreeSet<String> = if s == "none" {
            BTreeSet::new()
        } else {
            s.split(';')
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect()
        };
        if lines != want {
            errs.push(format!("solutions {lines:?}, expected {want:?}"));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}: {}", errs.join("; ")))
    }
}

#[test]
fn every_problem_has_its_published_solution() {
    let all = problems();
    let failures: Vec<String> = all
        .iter()
        .filter_map(|(name, f)| check(name, f).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} problems wrong:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

/// The collection covers every condition of SPEC section 2, every
/// stipulation type, problems with several keys and with none.
#[test]
fn the_collection_covers_every_condition_and_stipulation() {
    let all = problems();
    assert!(all.len() >= 40, "{} problems", all.len());
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut kinds: BTreeSet<&str> = BTreeSet::new();
    let (mut several, mut none) = (0, 0);
    for (_, f) in &all {
        for c in f
            .get("conditions")
            .map(String::as_str)
            .unwrap_or("")
            .split_whitespace()
        {
            seen.insert(c.to_string());
        }
        let stip = f["stip"].as_str();
        kinds.insert(if stip.starts_with("s#") {
            "s#"
        } else if stip.starts_with("h#") && stip.ends_with(".5") {
            "h#.5"
        } else if stip.starts_with("h#") {
            "h#"
        } else {
            "#"
        });
        match f["keys"].as_str() {
            "none" => none += 1,
            k if k.split_whitespace().count() > 1 && !stip.starts_with('h') => several += 1,
            _ => {}
        }
    }
    for c in fers_core::conditions::Condition::ALL {
        assert!(seen.contains(c.name()), "no problem under {}", c.name());
    }
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    assert!(
        several >= 3 && none >= 3,
        "{several} with several keys, {none} without"
    );
}
