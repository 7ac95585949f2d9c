//! The machines of a report's rows: each row names its machine by id (its `machine`
//! column), and the sweep files beside the results files hold the machines' records
//! ([`crate::machine`]). Every table gets a note per machine its rows ran on. Rows of more
//! than one machine are kept apart by default: each row's engine label ends in
//! `@<machine>` ([`Record::machine_label`]), so no summary, table or plot mixes machines;
//! pooled instead (`report --pool-machines`), every table that mixes them says so.

use super::paper::puzzle_of;
use crate::machine::{read_sweeps, Machine};
use crate::record::Record;
use crate::table::Table;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The machine records a report knows, and whether rows of different machines are pooled.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Machines {
    /// Machine records by id, from the sweep files.
    pub records: BTreeMap<String, Machine>,
    /// Pool the rows of different machines (`report --pool-machines`) instead of keeping
    /// them apart.
    pub pool: bool,
}

/// Which machine a row ran on: its machine id, or for a row without one (files of older
/// versions) its host.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Id(String),
    Host(String),
}

fn key(r: &Record) -> Key {
    if r.machine.is_empty() {
        Key::Host(r.host.clone())
    } else {
        Key::Id(r.machine.clone())
    }
}

/// What the report says of one machine: its host and its label.
struct Seen {
    host: String,
    label: String,
}

impl Machines {
    /// Reads the sweep files beside each of `csvs` (files without one add nothing); `pool`
    /// as for [`Machines::pool`].
    pub fn read(csvs: &[PathBuf], pool: bool) -> Result<Machines, String> {
        let mut records = BTreeMap::new();
        for csv in csvs {
            for s in read_sweeps(csv)? {
                records.entry(s.machine_id).or_insert(s.machine);
            }
        }
        Ok(Machines { records, pool })
    }

    /// The machines of `rows`, each with its host and label: the host where no other
    /// machine of the rows has the same host, else the host and the machine id
    /// (`node1-1a2b3c4d`; `node1-norecord` for rows without a machine id).
    fn census(&self, rows: &[Record]) -> BTreeMap<Key, Seen> {
        let mut hosts: BTreeMap<Key, String> = BTreeMap::new();
        for r in rows {
            hosts.entry(key(r)).or_insert_with(|| {
                let recorded = self.records.get(&r.machine).map(|m| m.host.clone());
                let host = recorded.unwrap_or_else(|| r.host.clone());
                if host.is_empty() {
                    "unknown".into()
                } else {
                    host
                }
            });
        }
        let mut per_host: BTreeMap<&str, usize> = BTreeMap::new();
        for h in hosts.values() {
            *per_host.entry(h.as_str()).or_default() += 1;
        }
        hosts
            .iter()
            .map(|(k, host)| {
                let label = if per_host[host.as_str()] == 1 {
                    host.clone()
                } else {
                    match k {
                        Key::Id(id) => format!("{host}-{id}"),
                        Key::Host(_) => format!("{host}-norecord"),
                    }
                };
                let seen = Seen {
                    host: host.clone(),
                    label,
                };
                (k.clone(), seen)
            })
            .collect()
    }

    /// True when the rows come from more than one machine and are kept apart.
    fn apart(&self, census: &BTreeMap<Key, Seen>) -> bool {
        census.len() > 1 && !self.pool
    }

    /// `rows` with [`Record::machine_label`] set on every row when they come from more
    /// than one machine and are not pooled; unchanged otherwise.
    pub fn label(&self, rows: &[Record]) -> Vec<Record> {
        let census = self.census(rows);
        let apart = self.apart(&census);
        rows.iter()
            .map(|r| {
                let mut r = r.clone();
                r.machine_label = apart.then(|| census[&key(&r)].label.clone());
                r
            })
            .collect()
    }

    /// The notes on the machines of `subset`, a part of the rows of `census`: whether rows
    /// of several machines were kept apart or pooled, then one line per machine in the
    /// order of their labels, "Machine <id>:
    /// <description>" (with its `@` label where machines are kept apart), or "Machine: host
    /// <host> (no machine record)" for rows without a machine id or whose id has no record.
    fn lines(&self, census: &BTreeMap<Key, Seen>, subset: &[&Record]) -> Vec<String> {
        // In the order of their labels (hosts first), so that notes read like the labels.
        let mut keys: Vec<Key> = subset
            .iter()
            .map(|r| key(r))
            .collect::<BTreeSet<Key>>()
            .into_iter()
            .collect();
        keys.sort_by(|a, b| census[a].label.cmp(&census[b].label).then(a.cmp(b)));
        let apart = self.apart(census);
        let mut out = Vec::new();
        let name = |k: &Key| match k {
            Key::Id(id) => format!("{id} ({})", census[k].host),
            Key::Host(h) => format!("host {h} (no machine record)"),
        };
        if keys.len() > 1 {
            if apart {
                let labels: Vec<String> = keys
                    .iter()
                    .map(|k| format!("@{}", census[k].label))
                    .collect();
                out.push(format!(
                    "Rows from {} machines, kept apart: each backend ends in @ and its machine ({}); report --pool-machines pools them.",
                    keys.len(),
                    labels.join(", ")
                ));
            } else {
                let names: Vec<String> = keys.iter().map(name).collect();
                out.push(format!(
                    "Rows from {} machines pooled: {}; their times are mixed in every figure.",
                    keys.len(),
                    names.join(", ")
                ));
            }
        }
        for k in &keys {
            let label = if apart {
                format!(" (@{})", census[k].label)
            } else {
                String::new()
            };
            out.push(match k {
                Key::Id(id) => match self.records.get(id) {
                    Some(m) => format!("Machine {id}{label}: {}", m.describe()),
                    None => format!(
                        "Machine {id}{label}: host {} (no machine record)",
                        census[k].host
                    ),
                },
                Key::Host(_) => format!(
                    "Machine{label}: host {} (no machine record)",
                    census[k].host
                ),
            });
        }
        out
    }

    /// The notes on the machines of all `rows`, for the report's index.
    pub fn index_lines(&self, rows: &[Record]) -> Vec<String> {
        let census = self.census(rows);
        self.lines(&census, &rows.iter().collect::<Vec<_>>())
    }

    /// Adds to the notes of each of `tables` the machines of its rows: those of its
    /// puzzle for a puzzle's table ([`puzzle_of`] its stem), all of `rows` for the others
    /// (the summary).
    pub fn annotate(&self, tables: &mut [Table], rows: &[Record]) {
        let census = self.census(rows);
        let puzzles: BTreeSet<&str> = rows.iter().map(|r| r.puzzle.as_str()).collect();
        for t in tables {
            let subset: Vec<&Record> = match puzzle_of(&t.stem, &puzzles) {
                Some(p) => rows.iter().filter(|r| r.puzzle == p).collect(),
                None => rows.iter().collect(),
            };
            t.notes.extend(self.lines(&census, &subset));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(host: &str, kernel: &str) -> Machine {
        Machine {
            host: host.into(),
            cpu_model: "Test CPU".into(),
            physical_cores: 1,
            logical_cores: 1,
            kernel: kernel.into(),
            ..Machine::default()
        }
    }

    fn row(puzzle: &str, machine: &Machine, host: &str) -> Record {
        Record {
            puzzle: puzzle.into(),
            backend: "highs".into(),
            machine: if machine.host.is_empty() {
                String::new()
            } else {
                machine.id()
            },
            host: host.into(),
            ..Record::default()
        }
    }

    fn known(ms: &[&Machine], pool: bool) -> Machines {
        Machines {
            records: ms.iter().map(|m| (m.id(), (*m).clone())).collect(),
            pool,
        }
    }

    fn table(stem: &str) -> Table {
        Table {
            stem: stem.into(),
            title: stem.into(),
            ..Table::default()
        }
    }

    #[test]
    fn one_machine_gets_no_label_and_a_note() {
        let a = machine("a", "6.1");
        let rows = vec![row("sudoku", &a, "a")];
        let ms = known(&[&a], false);
        let labelled = ms.label(&rows);
        assert_eq!(labelled[0].backend_label(), "highs");
        let mut ts = [table("summary")];
        ms.annotate(&mut ts, &labelled);
        assert_eq!(
            ts[0].notes,
            [format!("Machine {}: {}", a.id(), a.describe())]
        );
    }

    #[test]
    fn machines_are_kept_apart_by_host_or_by_id() {
        let a = machine("a", "6.1");
        let b = machine("b", "6.1");
        let a2 = machine("a", "6.2");
        let rows = vec![row("sudoku", &a, "a"), row("hashi", &b, "b")];
        let ms = known(&[&a, &b], false);
        let labelled = ms.label(&rows);
        assert_eq!(labelled[0].backend_label(), "highs@a");
        assert_eq!(labelled[1].backend_label(), "highs@b");
        let mut ts = [table("summary"), table("sudoku_sizes")];
        ms.annotate(&mut ts, &labelled);
        assert!(ts[0].notes[0].starts_with("Rows from 2 machines, kept apart"));
        assert_eq!(ts[0].notes.len(), 3);
        // The Sudoku table: its rows' machine only.
        assert_eq!(
            ts[1].notes,
            [format!("Machine {} (@a): {}", a.id(), a.describe())]
        );
        // Two machines of one host (a kernel update): host and id.
        let rows = vec![row("sudoku", &a, "a"), row("sudoku", &a2, "a")];
        let labelled = known(&[&a, &a2], false).label(&rows);
        assert_eq!(labelled[0].backend_label(), format!("highs@a-{}", a.id()));
        assert_eq!(labelled[1].backend_label(), format!("highs@a-{}", a2.id()));
    }

    #[test]
    fn pooled_machines_are_named_and_rows_without_a_record_say_so() {
        let a = machine("a", "6.1");
        let old = Machine::default();
        let rows = vec![row("sudoku", &a, "a"), row("sudoku", &old, "oldhost")];
        let ms = known(&[&a], true);
        let labelled = ms.label(&rows);
        assert!(labelled.iter().all(|r| r.backend_label() == "highs"));
        let mut ts = [table("sudoku_sizes")];
        ms.annotate(&mut ts, &labelled);
        assert_eq!(
            ts[0].notes,
            [
                format!(
                    "Rows from 2 machines pooled: {} (a), host oldhost (no machine record); their times are mixed in every figure.",
                    a.id()
                ),
                format!("Machine {}: {}", a.id(), a.describe()),
                "Machine: host oldhost (no machine record)".to_string(),
            ]
        );
        // An id without a record.
        let rows = vec![row("sudoku", &a, "a")];
        let lines = Machines::default().index_lines(&rows);
        assert_eq!(
            lines,
            [format!("Machine {}: host a (no machine record)", a.id())]
        );
    }
}
