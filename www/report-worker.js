// Computes a report whose evaluation is long (quickReport answered
// `deferred`: MapReduce's largest shuffles and its general LPs) off the
// main thread, with the model's charts as data for the page to paint
// (paintChart), with the bands of a calibration's uncertainty where the
// form carries one (carried.js). One evaluation serves both: the worker's
// session keeps it.
// The evaluation's progress (report's onProgress: the general LP's
// iterations) is posted as it comes, from inside the call, and says so
// (insideCall): the worker still takes no newer request.
// A newer request replaces a worker stuck in this one long call
// (worker-client.js).

import { chartData, report } from '../pkg/isoperf.js';
import { failure, serve } from './worker-serve.js';

serve({
  run({ model, params, charts, carried }, job) {
    const r = report(model, params, (fraction) => job.progress(fraction, { insideCall: true }));
    if (!job.current()) return;
    // Each chart, or why it is not drawn (as drawChart would throw it).
    const drawn = charts.map((id) => {
      try {
        return { id, chart: chartData(model, id, params, undefined, carried) };
      } catch (e) {
        return { id, ...failure(e) };
      }
    });
    job.post({ done: true, report: r, charts: drawn });
  },
});
