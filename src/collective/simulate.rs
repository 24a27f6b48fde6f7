//! A discrete-event simulator of a broadcast's sends: each process runs
//! its sends in program order; a send starts when the sender's port is
//! free, the sender has every piece it carries, and the receiver's port
//! is free (single-port, full-duplex: a process sends one message and
//! receives one at a time, both at once). A message of b bytes holds both
//! ports for [`Network::gap`] and is the receiver's [`Network::delivery`]
//! after it starts. The schedules are the algorithms' actual send orders;
//! their simulated times check the closed forms of [`super::algorithms`].

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use super::algorithms::Algorithm;
use super::Network;

/// One message: `pieces` of the message (each `piece_bytes` long) from one
/// process to another, started once the receiver holds the pieces `after`
/// (a rendezvous: an exchange waits until its receiver has finished
/// receiving what it will send back; empty for an ordinary send).
#[derive(Debug, Clone, PartialEq)]
pub struct Send {
    pub to: usize,
    pub pieces: Range<usize>,
    pub after: Range<usize>,
}

impl Send {
    pub fn new(to: usize, pieces: Range<usize>) -> Send {
        Send { to, pieces, after: 0..0 }
    }
}

/// A broadcast's program: the message cut into `pieces` equal pieces, all
/// at process 0 at time 0, and each process's sends in the order it makes them.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub pieces: usize,
    pub sends: Vec<Vec<Send>>,
}

/// A message as simulated: who sent which pieces to whom, when it started
/// and when its receiver had it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Message {
    pub from: usize,
    pub to: usize,
    pub first_piece: usize,
    pub pieces: usize,
    pub start: f64,
    pub end: f64,
}

/// The simulated broadcast: when the last process has the whole message, and every message.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    pub time: f64,
    pub messages: Vec<Message>,
}

/// A process as the simulation goes: when its ports are free, which of
/// its sends is next, whether it waits in the queue, when it has each piece.
#[derive(Debug, Clone)]
struct Process {
    send_free: f64,
    recv_free: f64,
    next: usize,
    queued: bool,
    have: Vec<f64>,
}

impl Process {
    /// When it has every piece of `pieces` (infinity while one is missing).
    fn has(&self, pieces: &Range<usize>) -> f64 {
        self.have.get(pieces.clone()).map_or(f64::INFINITY, |h| h.iter().copied().fold(0.0, f64::max))
    }
}

/// Plays `schedule` for a message of `n` bytes. `None` when it stalls (a
/// process would send a piece it never gets) or leaves a process without
/// a piece: a wrong schedule.
pub fn simulate(schedule: &Schedule, n: f64, net: &Network) -> Option<Simulation> {
    let piece_bytes = n / schedule.pieces.max(1) as f64;
    let mut procs: Vec<Process> = (0..schedule.sends.len())
        .map(|i| Process {
            send_free: 0.0,
            recv_free: 0.0,
            next: 0,
            queued: false,
            have: vec![if i == 0 { 0.0 } else { f64::INFINITY }; schedule.pieces],
        })
        .collect();
    let next_send = |procs: &[Process], i: usize| {
        let k = procs.get(i)?.next;
        schedule.sends.get(i)?.get(k)
    };
    // The earliest start of process i's next send: its port free, its pieces in, the receiver's port free.
    let earliest = |procs: &[Process], i: usize| -> Option<f64> {
        let s = next_send(procs, i)?;
        let (from, to) = (procs.get(i)?, procs.get(s.to)?);
        let t = from.has(&s.pieces).max(from.send_free).max(to.recv_free).max(to.has(&s.after));
        t.is_finite().then_some(t)
    };
    // Candidates: (earliest start, process), smallest first. A process is
    // queued when its next send's pieces are all in; it waits outside
    // while they are not, and is queued when a send brings them.
    // A process whose pieces are in but whose receiver lacks what a
    // rendezvous waits for waits in `waiting[receiver]`.
    let mut queue: BinaryHeap<Reverse<(Time, usize)>> = BinaryHeap::new();
    let mut waiting: Vec<Vec<usize>> = vec![Vec::new(); procs.len()];
    let enqueue = |procs: &mut [Process],
                   queue: &mut BinaryHeap<Reverse<(Time, usize)>>,
                   waiting: &mut [Vec<usize>],
                   i: usize| {
        let Some(t) = earliest(procs, i) else {
            if let Some(s) = next_send(procs, i) {
                let ready = procs.get(i).is_some_and(|from| from.has(&s.pieces).is_finite());
                if let (true, Some(w)) = (ready, waiting.get_mut(s.to)) {
                    w.push(i);
                }
            }
            return;
        };
        if let Some(proc) = procs.get_mut(i).filter(|proc| !proc.queued) {
            proc.queued = true;
            queue.push(Reverse((Time(t), i)));
        }
    };
    for i in 0..procs.len() {
        enqueue(&mut procs, &mut queue, &mut waiting, i);
    }
    let mut messages = Vec::new();
    while let Some(Reverse((Time(start), i))) = queue.pop() {
        if let Some(proc) = procs.get_mut(i) {
            proc.queued = false;
        }
        let (Some(s), Some(now)) = (next_send(&procs, i).cloned(), earliest(&procs, i)) else { continue };
        if now > start {
            enqueue(&mut procs, &mut queue, &mut waiting, i); // the receiver got busy meanwhile
            continue;
        }
        let bytes = piece_bytes * s.pieces.len() as f64;
        let (end, busy) = (now + net.delivery(bytes), now + net.gap(bytes));
        if let Some(to) = procs.get_mut(s.to) {
            for t in to.have.get_mut(s.pieces.clone()).into_iter().flatten() {
                *t = t.min(end);
            }
            to.recv_free = busy;
        }
        if let Some(from) = procs.get_mut(i) {
            from.send_free = busy;
            from.next += 1;
        }
        messages.push(Message {
            from: i,
            to: s.to,
            first_piece: s.pieces.start,
            pieces: s.pieces.len(),
            start: now,
            end,
        });
        // The sender's next send, the receiver's if what it waited for is in
        // now, and those that waited for the receiver to have its pieces.
        enqueue(&mut procs, &mut queue, &mut waiting, i);
        enqueue(&mut procs, &mut queue, &mut waiting, s.to);
        for w in waiting.get_mut(s.to).map(std::mem::take).unwrap_or_default() {
            enqueue(&mut procs, &mut queue, &mut waiting, w);
        }
    }
    if procs.iter().zip(&schedule.sends).any(|(proc, list)| proc.next < list.len()) {
        return None; // stalled
    }
    let time = procs.iter().flat_map(|proc| proc.have.iter().copied()).fold(0.0, f64::max);
    time.is_finite().then_some(Simulation { time, messages })
}

/// A time with a total order (the simulator's times are finite).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Time(f64);

impl Eq for Time {}

impl PartialOrd for Time {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Time {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The send program of `algorithm` for `p` processes and `k` segments
/// (segmented algorithms), or `None` where it does not apply.
pub fn schedule(algorithm: Algorithm, p: usize, k: usize) -> Option<Schedule> {
    let mut sends = vec![Vec::new(); p];
    let whole = |to| Send::new(to, 0..1);
    let pieces = match algorithm {
        Algorithm::Flat => {
            if let Some(root) = sends.first_mut() {
                *root = (1..p).map(whole).collect();
            }
            1
        }
        Algorithm::Binomial => {
            binomial(&mut sends, 0..p, &|_| 0..1);
            1
        }
        Algorithm::Chain => {
            let k = k.max(1);
            for (i, list) in sends.iter_mut().enumerate().take(p.saturating_sub(1)) {
                *list = (0..k).map(|j| Send::new(i + 1, j..j + 1)).collect();
            }
            k
        }
        Algorithm::Binary => {
            let k = k.max(1);
            for (i, list) in sends.iter_mut().enumerate() {
                let children: Vec<usize> = [2 * i + 1, 2 * i + 2].into_iter().filter(|&c| c < p).collect();
                *list = (0..k).flat_map(|j| children.iter().map(move |&c| Send::new(c, j..j + 1))).collect();
            }
            k
        }
        Algorithm::SplitBinary => return split_binary(p, k),
        Algorithm::ScatterRecursiveDoubling => {
            if !p.is_power_of_two() || p < 2 {
                return None;
            }
            scatter(&mut sends, p);
            let mut mask = 1;
            while mask < p {
                for (i, list) in sends.iter_mut().enumerate() {
                    // Before this step process i holds the block of `mask` pieces that contains
                    // piece i; a send-receive: the partner takes it once it holds its own block.
                    let (block, theirs) = (i / mask * mask, (i ^ mask) / mask * mask);
                    list.push(Send { to: i ^ mask, pieces: block..block + mask, after: theirs..theirs + mask });
                }
                mask <<= 1;
            }
            p
        }
        Algorithm::ScatterRing => {
            if p < 2 {
                return None;
            }
            scatter(&mut sends, p);
            for (i, list) in sends.iter_mut().enumerate() {
                // Step s: pass on the piece received at step s − 1 (first its own), a
                // send-receive: the next process takes it once it holds the piece it passes on.
                list.extend((0..p - 1).map(|s| {
                    let (piece, theirs) = ((i + p - s) % p, (i + 1 + p - s) % p);
                    Send { to: (i + 1) % p, pieces: piece..piece + 1, after: theirs..theirs + 1 }
                }));
            }
            p
        }
    };
    Some(Schedule { pieces, sends })
}

/// A binomial tree over `group` (its first process has the data): it sends
/// to the first process of the upper ⌊len/2⌋, then both parts go on alone,
/// the sender one send later. `carry` gives the pieces a send carries to
/// the part it starts.
fn binomial(sends: &mut [Vec<Send>], group: Range<usize>, carry: &dyn Fn(Range<usize>) -> Range<usize>) {
    let len = group.len();
    if len < 2 {
        return;
    }
    let mid = group.start + len.div_ceil(2);
    if let Some(list) = sends.get_mut(group.start) {
        list.push(Send::new(mid, carry(mid..group.end)));
    }
    binomial(sends, group.start..mid, carry);
    binomial(sends, mid..group.end, carry);
}

/// Binomial scatter of p pieces (piece i for process i): each send carries
/// the pieces of the part it starts.
fn scatter(sends: &mut [Vec<Send>], p: usize) {
    binomial(sends, 0..p, &|part| part);
}

/// The split-binary tree (as Open MPI builds it): 2k pieces, the first k
/// (half A) for the odd ranks, the last k (half B) for the even ones. Each
/// set is a binary heap of its own (its i-th rank's children are its
/// (2i + 1)-th and (2i + 2)-th); the root sends A's segment j to rank 1,
/// then B's to rank 2, and every other rank forwards each segment to its
/// children, left first. Then ranks 2i + 1 and 2i + 2 swap halves; when p
/// is even the last rank has no partner and gets B from the root. With
/// p = 2 the root's one child gets all 2k segments.
fn split_binary(p: usize, k: usize) -> Option<Schedule> {
    let k = k.max(1);
    let mut sends = vec![Vec::new(); p];
    if p < 3 {
        if let Some(root) = sends.first_mut() {
            *root = (0..2 * k).filter(|_| p == 2).map(|j| Send::new(1, j..j + 1)).collect();
        }
        return Some(Schedule { pieces: 2 * k, sends });
    }
    if let Some(root) = sends.first_mut() {
        *root = (0..k).flat_map(|j| [Send::new(1, j..j + 1), Send::new(2, k + j..k + j + 1)]).collect();
    }
    // Rank r ≥ 1 is the i-th of its heap, i = (r − 1)/2 (odd) or (r − 2)/2 (even);
    // the heap's i-th rank is 2i + 1 or 2i + 2.
    for r in 1..p {
        let (odd, i) = (r % 2 == 1, (r - 1) / 2);
        let rank = |i: usize| if odd { 2 * i + 1 } else { 2 * i + 2 };
        let half = if odd { 0 } else { k };
        let children: Vec<usize> = [rank(2 * i + 1), rank(2 * i + 2)].into_iter().filter(|&c| c < p).collect();
        let list = sends.get_mut(r)?;
        list.extend((0..k).flat_map(|j| children.iter().map(move |&c| Send::new(c, half + j..half + j + 1))));
    }
    // The swaps are rendezvous: a half goes once its receiver has its own.
    for a in (1..p).step_by(2) {
        if a + 1 < p {
            sends.get_mut(a)?.push(Send { to: a + 1, pieces: 0..k, after: k..2 * k });
            sends.get_mut(a + 1)?.push(Send { to: a, pieces: k..2 * k, after: 0..k });
        } else {
            sends.first_mut()?.push(Send { to: a, pieces: k..2 * k, after: 0..k });
        }
    }
    Some(Schedule { pieces: 2 * k, sends })
}
