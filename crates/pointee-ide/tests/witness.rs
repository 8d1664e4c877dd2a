//! Witness searches as an editor runs them: a search stops when its
//! caller cancels the snapshot or a newer change is applied, and other
//! answers on the same snapshot go on while it runs. (What the searches
//! find is tested through `pointee witness` on `fixtures/c/witness`.)

use pointee_ide::{AnalysisHost, Bounds, Change, Config, FilePosition, WitnessOptions};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// `spin` never leaves its loop: with these bounds the search only ends
/// when it is stopped.
const SPIN: &str = "struct node { struct node *next; int v; };
int spin(struct node *p) {
    struct node local;
    struct node *q = &local;
    for (;;) { q = p; q = &local; }
    return q->v;
}
int main(void) { struct node n; return spin(&n); }
";

fn endless() -> WitnessOptions {
    WitnessOptions {
        bounds: Bounds {
            loop_unfoldings: u32::MAX,
            call_depth: 4,
            max_paths: u32::MAX,
            time_ms: u64::MAX / 2,
        },
        ..Default::default()
    }
}

fn deref_position(host: &AnalysisHost) -> FilePosition {
    let a = host.analysis();
    let file = a.file_id("spin.c").unwrap();
    FilePosition {
        file,
        offset: SPIN.find("q->v").unwrap() as u32,
    }
}

#[test]
fn a_cancelled_snapshot_stops_the_search_and_hovers_answer_meanwhile() {
    let host = AnalysisHost::with_files([("spin.c", SPIN)], Config::default());
    let at = deref_position(&host);
    let searching = host.analysis();
    // The token of the handle the search runs on (a clone has its own).
    let token = searching.cancellation_token();
    let search = std::thread::spawn(move || searching.witness(at, endless()));
    // A hover on the same snapshot while the search runs (the engine is
    // not held for the whole search). A watchdog cancels the search after
    // a long while, so a hover that waited for it would come too late.
    std::thread::sleep(Duration::from_millis(100));
    let fired = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let (token, fired) = (token.clone(), fired.clone());
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(60));
            fired.store(true, Ordering::SeqCst);
            token.cancel();
        })
    };
    let hover_at = FilePosition {
        file: at.file,
        offset: SPIN.find("q = p").unwrap() as u32,
    };
    let hover = host.analysis().hover(hover_at).unwrap().unwrap();
    assert_eq!(hover.expr, "q");
    assert!(
        !fired.load(Ordering::SeqCst),
        "the hover waited for the search"
    );
    assert!(!search.is_finished(), "the search ended by itself");
    token.cancel();
    assert!(
        search.join().unwrap().is_err(),
        "a cancelled search is `Cancelled`"
    );
    drop(watchdog);
}

#[test]
fn a_newer_change_stops_the_search() {
    let mut host = AnalysisHost::with_files([("spin.c", SPIN)], Config::default());
    let at = deref_position(&host);
    let analysis = host.analysis();
    let search = std::thread::spawn(move || analysis.witness(at, endless()));
    std::thread::sleep(Duration::from_millis(100));
    // Applying a change waits for older snapshots: it returns only
    // because the search unwinds.
    let mut change = Change::new();
    change.set_file("spin.c", format!("{SPIN}\n"));
    host.apply_change(change);
    assert!(search.join().unwrap().is_err());
}
