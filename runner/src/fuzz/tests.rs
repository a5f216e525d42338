//! Tests of [`super`] (`fuzz/mod.rs`).

use super::*;
use crate::findings::Source;
use generator::program::generate_seeded;

#[test]
fn a_panic_while_preparing_is_an_error_with_its_message() {
    let a = ahead::Ahead::start(0, 2, 1, |k, _| {
        assert!(k != 3, "batch {k} exploded");
        Some(k)
    });
    while a.recv().is_some() {}
    let e = a.finish().map_err(preparation_failed).unwrap_err().to_string();
    assert!(e.contains("preparing batches failed: batch 3 exploded"), "{e}");
}

#[test]
fn read_ahead_stays_within_half_the_swarm_lag() {
    for jobs in [0, 1, 2, 16, 128] {
        let (threads, queue) = read_ahead(jobs);
        assert!(threads >= 1 && queue >= 1 && (threads + queue) as u64 <= adapt::LAG / 2, "{jobs}");
    }
}

/// The options of the tests below (seed 11, sm_90, batches of 2, share 0.25).
fn options() -> Options {
    Options {
        time: Duration::from_secs(1),
        max_programs: None,
        seed: 11,
        target: "sm_90".parse().unwrap(),
        backends: Vec::new(),
        ptxas: Vec::new(),
        devices: crate::backend::pool::Devices::List(vec![0]),
        workers: None,
        jobs: 1,
        config: Config::default(),
        run_dir: PathBuf::new(),
        known_dir: PathBuf::new(),
        resume: false,
        batch: 2,
        minimize: false,
        minimize_calls: 0,
        minimize_seconds: std::time::Duration::from_secs(60),
        minimize_threads: 1,
        allow: Allowances::all(),
        plant: None,
        command: String::new(),
        progress: false,
        shard: None,
        adapt: false,
        mutate_share: 0.25,
    }
}

/// Batch `b` of shard `i/N` is batch `b·N + i − 1` of the unsharded campaign: the shards
/// run disjoint programs that together are the campaign's.
#[test]
fn shards_run_the_campaigns_batches() {
    let o = options();
    let texts =
        |o: &Options, b: u64| -> Vec<String> { generate_batch(o, b, 2).0.iter().map(|p| p.module_text()).collect() };
    let whole: Vec<Vec<String>> = (0..6).map(|b| texts(&o, b)).collect();
    for i in 1..=3u32 {
        let s = Options { shard: Some(crate::runs::shard::Shard { index: i, count: 3 }), ..o.clone() };
        for b in 0..2u64 {
            assert_eq!(texts(&s, b), whole[(b * 3 + u64::from(i) - 1) as usize], "shard {i}/3 batch {b}");
        }
    }
}

#[test]
fn out_of_range_campaign_state_names_the_field() {
    let path = std::path::Path::new("run/campaign.json");
    let good = State {
        seed: 1,
        target: "sm_90@8.7".into(),
        backends: vec!["oracle".into()],
        next_batch: 3,
        programs: 768,
        seconds: 2.0,
        families: BTreeMap::from([("mov".to_string(), 10)]),
        invalid: 0,
        config: Config::default(),
        shard: None,
        triage: triage::TriageCounts::default(),
        stages: BTreeMap::new(),
        swarm: None,
        kinds: BTreeMap::new(),
        checkpoint: None,
        memory: None,
        sass: SassCounts::default(),
        coverage: Coverage::default(),
        mutate_share: 0.25,
        corpus: Default::default(),
        metrics: None,
    };
    let text = |s: &State| serde_json::to_string(s).unwrap();
    assert!(State::parse(&text(&good), path).is_ok());
    type Edit = fn(&mut State);
    let cases: [(&str, Edit); 14] = [
        ("sass.kernels", |s| s.sass.kernels = u64::MAX),
        ("corpus.mutants", |s| s.corpus.mutants = u64::MAX),
        ("corpus.size", |s| s.corpus.size = 5),
        ("corpus.size", |s| {
            s.corpus = corpus::CorpusCounts { size: 300, added: 300, ..Default::default() };
        }),
        ("mutate_share", |s| s.mutate_share = 1.5),
        ("coverage.kernels", |s| s.coverage.kernels = u64::MAX),
        ("coverage.novel_kernels", |s| s.coverage.novel_kernels = 3),
        ("next_batch", |s| s.next_batch = u64::MAX),
        ("programs", |s| s.programs = u64::MAX),
        ("invalid", |s| s.invalid = 769),
        ("families.mov", |s| {
            s.families.insert("mov".into(), u64::MAX);
        }),
        ("seconds", |s| s.seconds = -1.0),
        ("swarm.weights.cvt", |s| {
            s.swarm = Some(adapt::Swarm { weights: BTreeMap::from([("cvt".into(), 2.0)]), ..Default::default() })
        }),
        ("swarm.stats.mov", |s| {
            let stats = adapt::SwitchStats { programs: u64::MAX, ..Default::default() };
            s.swarm = Some(adapt::Swarm { stats: BTreeMap::from([("mov".into(), stats)]), ..Default::default() })
        }),
    ];
    for (field, edit) in cases {
        let mut s = good.clone();
        edit(&mut s);
        let e = State::parse(&text(&s), path).unwrap_err().to_string();
        assert!(e.contains(&format!("field `{field}`")) && e.contains("run/campaign.json"), "{field}: {e}");
    }
}

/// A batch with a corpus is its fresh programs (those of the batch without mutation), then its
/// share of mutants of corpus programs, named like the fresh ones, each with its source.
#[test]
fn a_batch_is_fresh_programs_then_its_share_of_mutants() {
    let o = options();
    let (parent, inputs) = generate_seeded(99, &o.config, &o.target, "p0_0");
    let parents = vec![corpus::Parent { name: "p0_0".into(), parsed: std::sync::Arc::new((parent.clone(), inputs)) }];
    assert_eq!(
        (mutants_in(8, 0.25, 1), mutants_in(8, 0.25, 0), mutants_in(3, 1.0, 5), mutants_in(4, 0.0, 5)),
        (2, 0, 3, 0)
    );
    let mixed = generate_mixed(&o, &o.config, 5, 8, &parents);
    let (fresh, _) = generate_batch(&o, 5, 6);
    assert_eq!(&mixed.programs[..6], &fresh[..]);
    assert!(mixed.sources[..6].iter().all(|s| matches!(s, Source::Fresh { switches } if !switches.is_empty())));
    assert_eq!((mixed.edits.len(), mixed.dropped), (2, 0));
    for k in 6..8 {
        assert_eq!(mixed.programs[k].name, format!("p5_{k}"));
        assert_eq!(generator::program::check_program(&mixed.programs[k]), Ok(()));
        assert_ne!(mixed.programs[k].body, parent.body);
        match &mixed.sources[k] {
            Source::Mutation { parent, mutation } => assert!(parent == "p0_0" && !mutation.is_empty()),
            other => panic!("{other:?}"),
        }
        assert!(mixed.switches[k].is_empty() && !mixed.edits[k - 6].is_empty());
    }
    // Without parents the batch is the batch without mutation.
    let plain = generate_mixed(&o, &o.config, 5, 8, &[]);
    assert_eq!(plain.programs, generate_batch(&o, 5, 8).0);
}
