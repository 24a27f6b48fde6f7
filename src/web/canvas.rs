//! The page's chart backend: plotters' canvas backend, except that text is
//! measured by the canvas itself (`measureText`). plotters measures text in
//! the browser by adding a `<span>` with a `style` attribute to the page's
//! body, which a strict Content-Security-Policy (`style-src 'self'`) blocks
//! and which fails where there is no body (a worker, a detached document).
//!
//! The same backend writes SVG ([`Canvas::svg`]): a chart exported as SVG
//! is laid out with the text widths the page measured, and the module holds
//! one copy of the chart drawing code, not a second one for plotters' SVG
//! backend (which also measures text through a styled `<span>`).

use std::cell::RefCell;
use std::fmt::Write;
use std::rc::Rc;

use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontStyle, FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// plotters-canvas does not name its error type.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// How tall a line of text is, in font sizes (a browser's `line-height: normal`).
const LINE_HEIGHT: f64 = 1.2;

/// Where the drawing goes: a canvas, or SVG elements appended to a string.
enum Target {
    Canvas(CanvasBackend),
    Svg { size: (u32, u32), out: Rc<RefCell<String>> },
}

pub struct Canvas {
    target: Target,
    /// Measures text (and, for a canvas, is its context).
    context: CanvasRenderingContext2d,
}

fn context_of(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()
}

impl Canvas {
    /// `None` when the canvas has no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = context_of(&canvas)?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Canvas { target: Target::Canvas(inner), context })
    }

    /// A backend that writes an SVG image `width` × `height` into `out`
    /// (the elements only: [`svg_document`] wraps them), measuring text on
    /// `measure` (which it does not draw on).
    pub fn svg(measure: &HtmlCanvasElement, width: u32, height: u32, out: Rc<RefCell<String>>) -> Option<Self> {
        Some(Canvas { target: Target::Svg { size: (width, height), out }, context: context_of(measure)? })
    }
}

/// The SVG document of `width` × `height` around `body` (what [`Canvas::svg`] wrote).
pub fn svg_document(width: u32, height: u32, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">{body}</svg>"
    )
}

fn paint(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    if c.alpha < 1.0 {
        format!("rgb({r},{g},{b})\" fill-opacity=\"{a}\" stroke-opacity=\"{a}", a = c.alpha)
    } else {
        format!("rgb({r},{g},{b})")
    }
}

fn points<I: IntoIterator<Item = BackendCoord>>(path: I) -> String {
    path.into_iter().map(|(x, y)| format!("{x},{y}")).collect::<Vec<_>>().join(" ")
}

fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

impl Canvas {
    /// Appends an SVG element (only in SVG mode).
    fn element(&self, element: impl FnOnce() -> String) {
        if let Target::Svg { out, .. } = &self.target {
            out.borrow_mut().push_str(&element());
        }
    }

    fn shape<S: BackendStyle>(style: &S, fill: bool) -> String {
        let c = paint(style.color());
        if fill {
            format!("fill=\"{c}\"")
        } else {
            format!("fill=\"none\" stroke=\"{c}\" stroke-width=\"{}\"", style.stroke_width())
        }
    }
}

impl DrawingBackend for Canvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        match &self.target {
            Target::Canvas(c) => c.get_size(),
            Target::Svg { size, .. } => *size,
        }
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        match &mut self.target {
            Target::Canvas(c) => c.ensure_prepared(),
            Target::Svg { .. } => Ok(()),
        }
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        match &mut self.target {
            Target::Canvas(c) => c.present(),
            Target::Svg { .. } => Ok(()),
        }
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<CanvasError>> {
        if let Target::Canvas(c) = &mut self.target {
            return c.draw_pixel(point, color);
        }
        self.element(|| {
            format!("<rect x=\"{}\" y=\"{}\" width=\"1\" height=\"1\" fill=\"{}\"/>", point.0, point.1, paint(color))
        });
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if let Target::Canvas(c) = &mut self.target {
            return c.draw_line(from, to, style);
        }
        self.element(|| {
            format!(
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {}/>",
                from.0,
                from.1,
                to.0,
                to.1,
                Self::shape(style, false)
            )
        });
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if let Target::Canvas(c) = &mut self.target {
            return c.draw_rect(upper_left, bottom_right, style, fill);
        }
        let (x, y) = upper_left;
        let (w, h) = (bottom_right.0 - x, bottom_right.1 - y);
        self.element(|| {
            format!("<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" {}/>", Self::shape(style, fill))
        });
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if let Target::Canvas(c) = &mut self.target {
            return c.draw_path(path, style);
        }
        self.element(|| {
            format!("<polyline points=\"{}\" stroke-linejoin=\"round\" {}/>", points(path), Self::shape(style, false))
        });
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if let Target::Canvas(c) = &mut self.target {
            return c.draw_circle(center, radius, style, fill);
        }
        self.element(|| {
            format!("<circle cx=\"{}\" cy=\"{}\" r=\"{radius}\" {}/>", center.0, center.1, Self::shape(style, fill))
        });
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if let Target::Canvas(c) = &mut self.target {
            return c.fill_polygon(vert, style);
        }
        self.element(|| format!("<polygon points=\"{}\" {}/>", points(vert), Self::shape(style, true)));
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if let Target::Canvas(c) = &mut self.target {
            return c.draw_text(text, style, pos);
        }
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Center => "middle",
            HPos::Right => "end",
        };
        let baseline = match style.anchor().v_pos {
            VPos::Top => "text-before-edge",
            VPos::Center => "central",
            VPos::Bottom => "text-after-edge",
        };
        let rotate = match style.transform() {
            FontTransform::Rotate90 => 90,
            FontTransform::Rotate180 => 180,
            FontTransform::Rotate270 => 270,
            _ => 0,
        };
        self.element(|| {
            let (x, y) = pos;
            let mut e = format!(
                "<text x=\"{x}\" y=\"{y}\" font-family=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" dominant-baseline=\"{baseline}\" fill=\"{}\"",
                xml_text(style.family().as_str()),
                style.size(),
                paint(style.color())
            );
            if matches!(style.style(), FontStyle::Bold) {
                e.push_str(" font-weight=\"bold\"");
            }
            if rotate != 0 {
                let _ = write!(e, " transform=\"rotate({rotate} {x} {y})\"");
            }
            let _ = write!(e, ">{}</text>", xml_text(text));
            e
        });
        Ok(())
    }

    /// The text's advance width and one line's height, in canvas pixels;
    /// horizontal whatever the style's rotation, as plotters expects.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        // The same font string the canvas backend draws with.
        self.context.set_font(&format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str()));
        let width = self.context.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
        let width = if width.is_finite() { width.max(0.0).ceil() as u32 } else { 0 };
        Ok((width, (style.size() * LINE_HEIGHT).ceil() as u32))
    }
}
