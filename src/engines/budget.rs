//! The one time budget of a run. It starts when the run starts (before the model is
//! built) and every part of the run draws on it: the LP relaxation, each round of row
//! generation, each node, LP and probe of a search, and each counting solve. Engines give
//! their solver what is [`Budget::left`] at the moment they call it, so no part can spend
//! time another part already used, and the runner's hard kill follows from the same limit.

use std::time::{Duration, Instant};

/// A wall-clock budget: a start and an optional limit in seconds.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    start: Instant,
    limit: Option<f64>,
}

impl Budget {
    /// A budget of `limit` seconds (`None`: no limit) from now.
    pub fn new(limit: Option<f64>) -> Budget {
        Budget {
            start: Instant::now(),
            limit,
        }
    }

    /// A budget without limit.
    pub fn unlimited() -> Budget {
        Budget::new(None)
    }

    /// The limit in seconds, as given.
    pub fn limit(&self) -> Option<f64> {
        self.limit
    }

    /// Seconds since the budget started.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Seconds left (never below 0), or `None` without limit.
    pub fn left(&self) -> Option<f64> {
        self.limit.map(|l| (l - self.elapsed()).max(0.0))
    }

    /// True once the limit has passed.
    pub fn expired(&self) -> bool {
        self.limit.is_some_and(|l| self.elapsed() >= l)
    }

    /// The instant the limit passes, or `None` without limit.
    pub fn deadline(&self) -> Option<Instant> {
        self.limit
            .map(|l| self.start + Duration::from_secs_f64(l.clamp(0.0, 1e9)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_runs_down() {
        let b = Budget::new(Some(0.05));
        assert!(!b.expired());
        assert!(b.left().unwrap() <= 0.05);
        std::thread::sleep(Duration::from_millis(60));
        assert!(b.expired());
        assert_eq!(b.left(), Some(0.0));
        assert!(b.deadline().unwrap() <= Instant::now());
        let u = Budget::unlimited();
        assert!(!u.expired() && u.left().is_none() && u.deadline().is_none());
    }
}
