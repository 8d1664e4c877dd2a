//! The analysis host behind a lock, brought up to the documents before each
//! request and analysis: what changed since the last sync (texts, with the
//! editor's incrementally re-parsed trees; files gone; the configuration)
//! is applied as one change.

use crate::docs::Snapshot;
use crate::settings::Settings;
use pointee_ide::{Analysis, AnalysisHost, CFolder, Change};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub struct Store {
    inner: Mutex<Synced>,
}

impl Default for Store {
    fn default() -> Store {
        Store {
            inner: Mutex::new(Synced {
                // C includes beyond the workspace's files come from the disk.
                host: AnalysisHost::with_system(Arc::new(crate::disk::Disk)),
                texts: HashMap::new(),
                model: Vec::new(),
            }),
        }
    }
}

struct Synced {
    host: AnalysisHost,
    /// The text each file had at the last sync.
    texts: HashMap<String, Arc<str>>,
    /// The workspace folders and their C program models at the last sync.
    model: Vec<CFolder>,
}

impl Store {
    /// Applies what changed in `snap`, `settings` and the folders' C program
    /// models and returns a snapshot to answer on. Writing an input cancels older
    /// snapshots' queries (and waits for them to unwind), so call this off
    /// the request loop.
    pub fn sync(&self, snap: &Snapshot, settings: &Settings, model: Vec<CFolder>) -> Analysis {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let Synced {
            host,
            texts,
            model: synced_model,
        } = &mut *guard;
        let mut change = Change::new();
        if *synced_model != model {
            change.set_c_folders(model.clone());
            *synced_model = model;
        }
        for (name, doc) in snap.docs.iter() {
            if doc.lang.is_none() || texts.get(name).is_some_and(|t| Arc::ptr_eq(t, &doc.text)) {
                continue;
            }
            match &doc.tree {
                Some(tree) => change.set_file_parsed(name.clone(), doc.text.clone(), tree.clone()),
                None => change.set_file(name.clone(), doc.text.clone()),
            }
            texts.insert(name.clone(), doc.text.clone());
        }
        texts.retain(|name, _| {
            let kept = snap.docs.contains_key(name);
            if !kept {
                change.remove_file(name.clone());
            }
            kept
        });
        change.set_config(settings.config.clone());
        host.apply_change(change);
        host.analysis()
    }
}
