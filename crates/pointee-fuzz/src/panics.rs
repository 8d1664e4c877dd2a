//! Panics on threads the fuzz targets do not join (the language server's
//! runtime catches its tasks' panics and answers with an error): a panic
//! hook records each panic with its thread's name, and a target takes those
//! of its own threads.

use std::sync::{Mutex, Once};

static PANICS: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
static HOOK: Once = Once::new();

/// Installs the recording hook (once; the previous hook still prints).
pub fn install() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current().name().unwrap_or("").to_string();
            if let Ok(mut v) = PANICS.lock() {
                v.push((thread, info.to_string()));
            }
            previous(info);
        }));
    });
}

/// The panics recorded on threads whose name starts with `prefix`
/// (removed from the record).
pub fn take(prefix: &str) -> Vec<String> {
    let Ok(mut v) = PANICS.lock() else {
        return Vec::new();
    };
    let (mine, rest): (Vec<_>, Vec<_>) = v.drain(..).partition(|(t, _)| t.starts_with(prefix));
    *v = rest;
    mine.into_iter().map(|(_, m)| m).collect()
}

/// A caught panic's message.
pub fn message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}
