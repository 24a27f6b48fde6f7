//! Collective communication: the classic broadcast algorithms, what each
//! costs in closed form under the Hockney and LogGP models ([`algorithms`]),
//! and a discrete-event simulator that plays their actual send schedules
//! ([`simulate`]) and checks the closed forms. Vocabulary: it knows no
//! model; the `broadcast` model and pmm's Table 2 both use it.
//!
//! Both cost models are read through two numbers per message of `b` bytes
//! ([`Network::gap`] and [`Network::delivery`]): how long the sender's
//! port is held before it can start its next message, and how long after
//! the start the receiver holds the message. Processes are single-port and
//! full-duplex: each sends one message and receives one at a time, both at
//! once.

pub mod algorithms;
pub mod simulate;

pub use algorithms::Algorithm;

/// What a message costs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Network {
    /// Hockney: a message of b bytes takes `alpha + b·beta`, for the sender
    /// and the receiver alike.
    Hockney { alpha: f64, beta: f64 },
    /// LogGP (Alexandrov et al. 1995): latency `l`, overhead `o` at each end,
    /// gap `g` between messages, gap `big_g` per byte of a long message. A
    /// message of b bytes arrives `l + 2o + (b − 1)·G` after it starts, and
    /// holds the sender `g + (b − 1)·G` (g ≥ o).
    LogGP { l: f64, o: f64, g: f64, big_g: f64 },
}

impl Network {
    /// How long a message of `bytes` holds its sender's port (and its
    /// receiver's): the least time between two of its sends.
    pub fn gap(&self, bytes: f64) -> f64 {
        match *self {
            Network::Hockney { alpha, beta } => alpha + bytes * beta,
            Network::LogGP { g, big_g, .. } => g + (bytes - 1.0).max(0.0) * big_g,
        }
    }

    /// How long after its start the receiver holds a message of `bytes`
    /// (and may send it on).
    pub fn delivery(&self, bytes: f64) -> f64 {
        match *self {
            Network::Hockney { alpha, beta } => alpha + bytes * beta,
            Network::LogGP { l, o, big_g, .. } => l + 2.0 * o + (bytes - 1.0).max(0.0) * big_g,
        }
    }

    /// The longer of the two: the pace of a chain of messages in which each
    /// waits for the one before it and for its sender's port.
    pub fn step(&self, bytes: f64) -> f64 {
        self.gap(bytes).max(self.delivery(bytes))
    }

    /// The network that counts what a schedule's critical path holds:
    /// messages (`Hockney {1, 0}`) or bytes (`Hockney {0, 1}`).
    pub const MESSAGES: Network = Network::Hockney { alpha: 1.0, beta: 0.0 };
    pub const BYTES: Network = Network::Hockney { alpha: 0.0, beta: 1.0 };
}
