// Analyses a data set's measured runs (analyze), or calibrates a model to
// measured runs (calibrate), off the main thread, with
// its charts as data for the page to paint (paintChart): a 10⁵-row CSV
// takes about a second to read, fit and chart three times, and the page
// stays responsive meanwhile. A newer request (more typing) replaces a
// worker stuck in this one (worker-client.js).

import { analysisChartData, analyze, calibrate } from '../pkg/isoperf.js';
import { failure, serve } from './worker-serve.js';

serve({
  async run({ kind, model, dataset, text, params, charts, fit, relative }, job) {
    if (kind === 'calibrate') {
      // A model's parameters fitted to measured runs (calibration.js).
      try {
        job.post({ done: true, calibrated: calibrate(model, text, params, fit, relative) });
      } catch (e) {
        if (job.current()) job.post({ ...failure(e), line: e.line ?? 0, column: e.column ?? 0 });
      }
      return;
    }
    let analysis;
    try {
      analysis = analyze(model, dataset, text, params);
    } catch (e) {
      // The CSV's own error, with its line and column.
      if (job.current()) job.post({ ...failure(e), line: e.line ?? 0, column: e.column ?? 0 });
      return;
    }
    const drawn = {};
    for (const id of charts) {
      await job.pause(); // a newer text gets in between charts
      if (!job.current()) return;
      try {
        drawn[id] = { chart: analysisChartData(model, dataset, text, params, id) };
      } catch (e) {
        drawn[id] = failure(e);
      }
    }
    job.post({ done: true, analysis, charts: drawn });
  },
});
