use std::sync::atomic::AtomicBool;

use oracle::program::text::parse_stmt;
use oracle::program::Launch;

use super::*;

fn program(name: &str) -> (Program, Inputs) {
    let body = ["ld.global.b32 %r0, [%in];", "st.global.b32 [%out], %r0;"];
    let p = Program {
        name: name.into(),
        target: "sm_90a@8.7".parse().unwrap(),
        launch: Launch::one_cta(32),
        inputs: 4,
        outputs: 1,
        shared: 0,
        body: body.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
    };
    (p, Inputs((0..128).collect()))
}

fn fresh() -> Source {
    Source::Fresh { switches: vec!["cvt".into()] }
}

/// Applies batch `b` with one offer per `added`, named `p<b>_<k>`; the lines it appends.
fn apply(c: &mut Corpus, b: u64, added: &[[usize; 3]]) -> String {
    let progs: Vec<(Program, Inputs)> = (0..added.len()).map(|k| program(&format!("p{b}_{k}"))).collect();
    let src = fresh();
    let offers: Vec<Offer> =
        progs.iter().zip(added).map(|((p, i), a)| Offer { program: p, inputs: i, source: &src, added: *a }).collect();
    c.finish_batch(b, &offers, 0, &[])
}

fn names(v: &[Parent]) -> Vec<String> {
    v.iter().map(|p| p.name.clone()).collect()
}

#[test]
fn a_kernel_is_kept_for_a_new_opcode_or_many_new_pairs_or_triples() {
    assert_eq!(tier([1, 0, 0]), Some(Tier::Opcode));
    assert_eq!(tier([0, PAIRS, 0]), Some(Tier::Schedule));
    assert_eq!(tier([0, 0, TRIPLES]), Some(Tier::Schedule));
    assert_eq!(tier([0, PAIRS - 1, TRIPLES - 1]), None);
}

/// A batch mutates the corpus as it was `LAG` batches before it, whatever was applied since.
#[test]
fn a_batch_sees_the_corpus_lag_batches_before_it() {
    let mut c = Corpus::default();
    assert_eq!(c.view_for(LAG).map(|v| v.len()), None, "batch 0 not applied yet");
    assert!(c.view_for(LAG - 1).unwrap().is_empty(), "the first LAG batches mutate nothing");
    for b in 0..=LAG + 1 {
        let added: Vec<[usize; 3]> = if b == 1 { vec![[1, 0, 0], [0, 0, 0]] } else { Vec::new() };
        apply(&mut c, b, &added);
    }
    assert!(c.view_for(LAG).unwrap().is_empty(), "batch 0 added nothing");
    assert_eq!(names(&c.view_for(LAG + 1).unwrap()), ["p1_0"]);
    assert_eq!(c.view_for(2 * LAG + 2).map(|v| v.len()), None, "waits for batch LAG + 2");
    let stop = AtomicBool::new(true);
    let shared = Shared::new(c);
    assert!(shared.view_for(2 * LAG + 2, &stop).is_none(), "a stopping campaign does not wait");
    assert_eq!(shared.view_for(LAG + 1, &stop).map(|v| names(&v)), Some(vec!["p1_0".to_string()]));
}

/// Past the capacity the oldest schedule entry goes; opcode entries go only when nothing else
/// is left, oldest first.
#[test]
fn eviction_keeps_the_opcode_entries_longest() {
    let mut c = Corpus::default();
    apply(&mut c, 0, &[[1, 0, 0], [0, 0, TRIPLES]]);
    let schedules = vec![[0, PAIRS, 0]; CAPACITY - 2];
    apply(&mut c, 1, &schedules);
    assert_eq!((c.counts.size, c.counts.evicted), (CAPACITY as u64, 0));
    let lines = apply(&mut c, 2, &[[0, 0, TRIPLES]]);
    assert!(lines.ends_with("{\"batch\":2,\"evict\":1}\n"), "the oldest schedule entry, p0_1: {lines}");
    let opcodes = vec![[2, 0, 0]; CAPACITY];
    apply(&mut c, 3, &opcodes);
    let live: Vec<&str> = c.live().map(|h| h.entry.name.as_str()).collect();
    assert_eq!(live.len(), CAPACITY);
    assert!(
        !live.contains(&"p0_0") && live.contains(&"p3_0") && live.contains(&format!("p3_{}", CAPACITY - 1).as_str())
    );
    assert_eq!(c.counts.added, 2 + (CAPACITY as u64 - 2) + 1 + CAPACITY as u64);
    assert!(c.counts.consistent(), "{:?}", c.counts);
}

/// The file rebuilds the corpus a resumed campaign starts from: the lines of the batches it
/// runs again go, the views are those of the uninterrupted corpus, a state that counts another
/// corpus is refused, and compaction keeps what a resumed campaign can still see.
#[test]
fn the_file_restores_the_corpus_and_compaction_keeps_what_is_still_seen() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Corpus::default();
    let mut at_10 = None;
    for b in 0..120u64 {
        let added = vec![[0, 0, TRIPLES]; 8];
        let lines = apply(&mut c, b, &added);
        Corpus::append(dir.path(), &lines).unwrap();
        if b == 9 {
            at_10 = Some((c.counts.clone(), names(&c.view_for(LAG + 9).unwrap())));
        }
    }
    let whole = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
    // Resumed after batch 9 (its state said next_batch 10): later lines go.
    let (counts, view) = at_10.unwrap();
    let r = Corpus::load(dir.path(), 10, &counts).unwrap();
    assert_eq!(names(&r.view_for(LAG + 9).unwrap()), view);
    let text = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
    assert!(text.len() < whole.len() && whole.starts_with(&text));
    let e = Corpus::load(dir.path(), 10, &CorpusCounts { size: 5, ..counts.clone() }).unwrap_err();
    assert!(e.contains(FILE) && e.contains("corpus.size = 5"), "{e}");
    std::fs::write(dir.path().join(FILE), &whole).unwrap();
    // Compaction after a state at batch 120 drops the entries evicted at or before 88.
    c.compact(dir.path(), 120).unwrap();
    let compacted = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
    assert!(compacted.len() < whole.len(), "{} evicted, the old ones dropped", c.counts.evicted);
    let mut r = Corpus::load(dir.path(), 120, &c.counts).unwrap();
    // Nothing more to drop: the file is not even read (here it is gone).
    std::fs::remove_file(dir.path().join(FILE)).unwrap();
    c.compact(dir.path(), 120).unwrap();
    r.compact(dir.path(), 120).unwrap();
    // What both remember is in the file: the evictions after batch 88.
    assert_eq!(c.evictions_in_file, r.evictions_in_file);
    assert!(c.evictions_in_file.iter().all(|&e| e > 88) && !c.evictions_in_file.is_empty());
    for b in 120..120 + LAG {
        assert_eq!(names(&r.view_for(b).unwrap()), names(&c.view_for(b).unwrap()), "batch {b}");
    }
    let bad = dir.path().join("bad");
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(bad.join(FILE), "{\"batch\":0}\n").unwrap();
    let e = Corpus::load(&bad, 1, &CorpusCounts::default()).unwrap_err();
    assert!(e.contains(":1:") && e.contains("adds one entry or evicts one"), "{e}");
}
