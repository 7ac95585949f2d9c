//! Racing configurations (issues 55 and 63): run the surviving candidates over a plan of
//! instances fixed before the race starts, and drop a candidate once a test says it is
//! worse than the best, as F-Race (Birattari, Stützle, Paquete and Varrentrapp, GECCO 2002)
//! and irace (López-Ibáñez et al., Operations Research Perspectives 2016) do, but with
//! pairwise exact tests. [`sign`] holds the statistics (when an instance separates two
//! candidates, the exact sign test, Holm's adjustment), [`elimination`] the rule that uses
//! them, [`ladder`] the plan, [`capping`] the adaptive cap of slow runs; docs/race.md describes the method and what the synthetic
//! races of the tests measured.

pub mod capping;
pub mod elimination;
pub mod ladder;
pub mod sign;
pub mod state;

#[cfg(test)]
mod simulate;
