//! Large query values freed off the edit path. salsa frees the values an
//! edit replaced when the next edit writes an input, so their drop (a whole
//! file's IR and source map, the linked program) would add to the time from
//! that edit to fresh diagnostics. Values registered here are shared with a
//! background thread, which frees them once it holds the last reference.

use std::any::Any;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// A shared value and a way to ask whether only we still hold it.
struct Grave {
    value: Arc<dyn Any + Send + Sync>,
}

impl Grave {
    fn last(&self) -> bool {
        Arc::strong_count(&self.value) == 1
    }
}

fn sender() -> &'static Mutex<Sender<Grave>> {
    static SENDER: OnceLock<Mutex<Sender<Grave>>> = OnceLock::new();
    SENDER.get_or_init(|| {
        let (tx, rx) = channel::<Grave>();
        std::thread::Builder::new()
            .name("pointee-db-graveyard".into())
            .spawn(move || {
                let mut held: Vec<Grave> = Vec::new();
                loop {
                    // Wake for new values, or now and then to free old ones.
                    match rx.recv_timeout(Duration::from_millis(200)) {
                        Ok(g) => held.push(g),
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
                    }
                    held.retain(|g| !g.last());
                }
            })
            .expect("spawning the graveyard thread");
        Mutex::new(tx)
    })
}

/// Returns `value` after handing a reference to the background thread, which
/// frees it when salsa (and every reader) has let go of it.
pub(crate) fn shared<T: Send + Sync + 'static>(value: Arc<T>) -> Arc<T> {
    let grave = Grave {
        value: value.clone(),
    };
    let _ = sender()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(grave);
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_freed_after_its_last_user_lets_go() {
        let value = shared(Arc::new(vec![1u8; 1 << 20]));
        let weak = Arc::downgrade(&value);
        assert_eq!(value.len(), 1 << 20);
        // Held by the background thread while we hold it too.
        std::thread::sleep(Duration::from_millis(300));
        assert!(weak.upgrade().is_some());
        drop(value);
        let freed = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(50));
            weak.upgrade().is_none()
        });
        assert!(freed, "the background thread never freed the value");
    }
}
