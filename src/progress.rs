//! How far a long computation has come, for a front end that shows it.
//!
//! A computation that may take seconds calls [`report`] with the fraction
//! done, as it learns it (the general LP after each interior-point
//! iteration); a front end that wants to hear it runs the computation
//! inside [`with`]. Without a hook, [`report`] does nothing. The hook is
//! per thread: the page's report worker is one thread, and so is each
//! test.

use std::cell::{Cell, RefCell};

/// What hears the fractions done.
type Hook = Box<dyn Fn(f64)>;

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
    /// True while the hook runs: what it computes reports to no one.
    static IN_HOOK: Cell<bool> = const { Cell::new(false) };
}

/// Removes the hook when the computation ends, however it ends.
struct Reset;

impl Drop for Reset {
    fn drop(&mut self) {
        HOOK.with(|h| {
            if let Ok(mut hook) = h.try_borrow_mut() {
                hook.take();
            }
        });
    }
}

/// Runs `f`, passing each fraction it reports (0 to 1) to `hook`. A
/// computation started inside a hook reports to no one.
pub fn with<R>(hook: impl Fn(f64) + 'static, f: impl FnOnce() -> R) -> R {
    let set = HOOK.with(|h| match h.try_borrow_mut() {
        Ok(mut slot) if slot.is_none() => {
            *slot = Some(Box::new(hook));
            true
        }
        _ => false,
    });
    let _reset = set.then_some(Reset);
    f()
}

/// Runs `f` with its reports heard by no one: a part of a computation
/// that reports its own progress (a search over solves, each of which
/// would report its own from 0 again).
pub fn unheard<R>(f: impl FnOnce() -> R) -> R {
    /// Lets reports be heard again when `f` ends, however it ends.
    struct Heard(bool);
    impl Drop for Heard {
        fn drop(&mut self) {
            IN_HOOK.with(|x| x.set(self.0));
        }
    }
    let _heard = Heard(IN_HOOK.with(|x| x.replace(true)));
    f()
}

/// Reports that `fraction` (clamped to 0…1; NaN is not reported) of the
/// running computation is done.
pub fn report(fraction: f64) {
    if fraction.is_nan() {
        return;
    }
    if IN_HOOK.with(Cell::get) {
        return;
    }
    HOOK.with(|h| {
        if let Ok(hook) = h.try_borrow() {
            if let Some(hook) = &*hook {
                IN_HOOK.with(|x| x.set(true));
                hook(fraction.clamp(0.0, 1.0));
                IN_HOOK.with(|x| x.set(false));
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    #[test]
    fn a_hook_hears_its_computation_only() {
        let heard = Rc::new(Cell::new(0.0));
        let seen = Rc::clone(&heard);
        let out = super::with(
            move |f| seen.set(f),
            || {
                super::report(2.0);
                7
            },
        );
        assert_eq!(out, 7);
        assert_eq!(heard.get(), 1.0, "clamped to 1");
        super::report(0.5); // no hook now
        assert_eq!(heard.get(), 1.0);
        // A computation started inside a hook reports to no one, and the
        // outer hook still hears its own.
        let outer = Rc::new(Cell::new(0.0));
        let seen = Rc::clone(&outer);
        super::with(
            move |f| {
                seen.set(f);
                super::with(|_| panic!("the inner hook is never set"), || super::report(0.25));
            },
            || super::report(0.5),
        );
        assert_eq!(outer.get(), 0.5);
    }

    #[test]
    fn an_unheard_part_reports_to_no_one() {
        let heard = Rc::new(Cell::new(0.0));
        let seen = Rc::clone(&heard);
        super::with(
            move |f| seen.set(f),
            || {
                super::report(0.5);
                super::unheard(|| super::report(0.1));
                assert_eq!(heard.get(), 0.5, "the part's report is not heard");
                super::report(0.75);
            },
        );
        assert_eq!(heard.get(), 0.75, "the computation's own reports are heard after it");
    }
}
