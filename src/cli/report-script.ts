/**
 * The run report's one script: a cursor that follows the pointer over the chart and a tip
 * naming the nearest drawn step and its size. It reads the drawn steps from the page's
 * `report-series` JSON; the page is complete without it.
 */
export const REPORT_SCRIPT = `(function () {
  var svg = document.querySelector('svg.chart');
  var source = document.getElementById('report-series');
  var tip = document.getElementById('tip');
  if (!svg || !source || !tip) return;
  var data = JSON.parse(source.textContent);
  var g = data.geometry;
  var cursor = svg.querySelector('.cursor');
  var dot = svg.querySelector('.cursor-dot');
  function x(step) {
    return g.last === g.first ? g.left + g.width / 2 : g.left + ((step - g.first) / (g.last - g.first)) * g.width;
  }
  function y(tokens) {
    return g.top + g.height - (Math.min(tokens, g.yMax) / g.yMax) * g.height;
  }
  function nearest(step) {
    var low = 0, high = data.steps.length - 1;
    while (high - low > 1) {
      var mid = (low + high) >> 1;
      if (data.steps[mid] < step) low = mid; else high = mid;
    }
    return Math.abs(data.steps[low] - step) <= Math.abs(data.steps[high] - step) ? low : high;
  }
  function hide() {
    tip.hidden = true;
    cursor.setAttribute('visibility', 'hidden');
    dot.setAttribute('visibility', 'hidden');
  }
  svg.addEventListener('mousemove', function (event) {
    var matrix = svg.getScreenCTM();
    if (!matrix || data.steps.length === 0) return;
    var point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    var i = nearest(g.first + ((point.x - g.left) / g.width) * (g.last - g.first));
    var step = data.steps[i], tokens = data.tokens[i];
    cursor.setAttribute('x1', x(step));
    cursor.setAttribute('x2', x(step));
    dot.setAttribute('cx', x(step));
    dot.setAttribute('cy', y(tokens));
    cursor.setAttribute('visibility', 'visible');
    dot.setAttribute('visibility', 'visible');
    var label = data.labels ? ' (' + data.labels[i] + ')' : '';
    var billed = data.reported ? data.reported[i] : null;
    var size = billed === null ? tokens : billed;
    tip.textContent = 'step ' + step.toLocaleString('en-US') + label + ': ' + tokens.toLocaleString('en-US') +
      (billed === null ? ' tokens' : ' tokens estimated, ' + billed.toLocaleString('en-US') + ' reported') + ', ' +
      Math.round((size / data.window) * 100) + '% of the window';
    tip.hidden = false;
    tip.style.left = event.pageX + 14 + 'px';
    tip.style.top = event.pageY + 14 + 'px';
  });
  svg.addEventListener('mouseleave', hide);
})();`;
