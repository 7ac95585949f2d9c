window.addEventListener('error', function (e) {
  document.documentElement.setAttribute('data-error', String(e.message));
});
// The long tables: their rows, written from the data the page holds (each column's
// distinct cells once, each row their indices); a cell that reads as a number is
// right-aligned, and its parts written "a \u00b7 b" go on lines of their own.
document.querySelectorAll('script.table-data').forEach(function (s) {
  var data = JSON.parse(s.textContent);
  var rows = document.createDocumentFragment();
  data.rows.forEach(function (r) {
    var tr = document.createElement('tr');
    r.forEach(function (k, j) {
      var text = data.values[j][k];
      var td = document.createElement('td');
      if (/^[0-9.\-\u2013+e\u00d7%\/ ]+$/.test(text.trim())) { td.className = 'n'; }
      text.split(' \u00b7 ').forEach(function (part, p) {
        if (p > 0) { td.appendChild(document.createElement('br')); }
        td.appendChild(document.createTextNode(part));
      });
      tr.appendChild(td);
    });
    rows.appendChild(tr);
  });
  s.parentNode.querySelector('tbody').appendChild(rows);
});
// The run table: its rows, written from the runs the page holds (one array each: indices
// into the lists of instances, configurations, statuses and reasons, and the numbers).
document.querySelectorAll('div.runs').forEach(function (box) {
  var data = JSON.parse(box.querySelector('script.runs-data').textContent);
  var classes = ['', 'failed', 'wrong', 'refused'];
  function fixed(x, d) { return x == null ? '\u2013' : x.toFixed(d); }
  var rows = document.createDocumentFragment();
  data.rows.forEach(function (r) {
    var tr = document.createElement('tr');
    var config = data.configs[r[1]], status = data.statuses[r[3]];
    if (r[10] > 0) { tr.className = classes[r[10]]; }
    tr.setAttribute('data-config', config);
    tr.setAttribute('data-status', status);
    [data.instances[r[0]], config, String(r[2]), status + (r[10] === 2 ? ' (wrong answer)' : ''),
     fixed(r[4], 4), fixed(r[5], 3), fixed(r[6], 3), fixed(r[7], 1),
     r[8] == null ? '\u2013' : String(r[8]),
     r[9] == null ? '\u2013' : (r[9] ? 'yes' : 'no')].forEach(function (text, k) {
      var td = document.createElement('td');
      td.textContent = text;
      if (k === 2 || (k >= 4 && k <= 8)) { td.className = 'num'; }
      if (k === 3 && r[11] != null) { td.title = data.errors[r[11]]; }
      tr.appendChild(td);
    });
    rows.appendChild(tr);
  });
  box.querySelector('tbody').appendChild(rows);
});
function cellValue(td) {
  var t = td.getAttribute('data-sort') || td.textContent.trim();
  var m = t.match(/^(-?[0-9.]+(?:e-?[0-9]+)?)/);
  if (m) { return parseFloat(m[1]); }
  return (t === '–' || t === '✗' || t === 'n/a' || t === '') ? Infinity : t.toLowerCase();
}
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('thead th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute('data-order') !== 'up';
      th.setAttribute('data-order', up ? 'up' : 'down');
      rows.sort(function (a, b) {
        var x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
        var c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
        return up ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
// The run table: show the rows whose configuration and status match the filters.
document.querySelectorAll('div.runs').forEach(function (box) {
  var selects = box.querySelectorAll('select');
  function apply() {
    var shown = 0;
    box.querySelectorAll('tbody tr').forEach(function (tr) {
      var ok = true;
      selects.forEach(function (s) {
        if (s.value !== '' && tr.getAttribute('data-' + s.name) !== s.value) { ok = false; }
      });
      tr.style.display = ok ? '' : 'none';
      if (ok) { shown += 1; }
    });
    box.querySelector('.shown').textContent = String(shown);
  }
  selects.forEach(function (s) { s.addEventListener('change', apply); });
  apply();
});
// With #filter-test, the page checks the run table's filters: choosing the first
// configuration shows only its rows.
if (location.hash === '#filter-test') {
  var box = document.querySelector('div.runs');
  var res = 'no run table';
  if (box) {
    var sel = box.querySelector('select[name="config"]');
    var pick = sel.options[1].value;
    sel.value = pick;
    sel.dispatchEvent(new Event('change'));
    var rows = Array.prototype.slice.call(box.querySelectorAll('tbody tr'));
    var visible = rows.filter(function (r) { return r.style.display !== 'none'; });
    var right = visible.every(function (r) { return r.getAttribute('data-config') === pick; });
    var all = rows.filter(function (r) { return r.getAttribute('data-config') === pick; }).length;
    res = (visible.length > 0 && right && visible.length === all && visible.length < rows.length) ? 'ok' : 'failed';
  }
  document.documentElement.setAttribute('data-filter', res);
}
document.documentElement.setAttribute('data-ready', '1');
window.addEventListener('load', function () {
  var broken = 0;
  document.querySelectorAll('img').forEach(function (img) {
    if (!img.complete || img.naturalWidth === 0) { broken += 1; }
  });
  document.documentElement.setAttribute('data-broken-images', String(broken));
  document.documentElement.setAttribute('data-images', String(document.images.length));
  // With #layout-test, the page measures itself (the browser test): its height with every
  // folded section closed, then, with them all open, what reaches past the page's column
  // or makes the window scroll sideways.
  if (location.hash === '#layout-test') {
    var root = document.documentElement;
    root.setAttribute('data-height', String(root.scrollHeight));
    var none = document.querySelectorAll('td.none');
    var grey = Array.prototype.filter.call(none, function (td) {
      return getComputedStyle(td).backgroundColor === 'rgb(189, 189, 189)';
    });
    root.setAttribute('data-none-cells', String(none.length));
    root.setAttribute('data-grey-cells', String(grey.length));
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
    var column = document.body.getBoundingClientRect();
    var right = column.right - parseFloat(getComputedStyle(document.body).paddingRight) + 1;
    var wide = [];
    document.querySelectorAll('table, figure, svg, img, p, pre, div, dl, ul').forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > right) {
        wide.push((el.id || el.getAttribute('class') || el.tagName) + ' ' + Math.round(r.width) + 'px');
      }
    });
    root.setAttribute('data-overflow', String(wide.length));
    root.setAttribute('data-overflow-what', wide.slice(0, 5).join('; '));
    root.setAttribute('data-scroll-sideways', root.scrollWidth > root.clientWidth ? '1' : '0');
    // Words of the overview's answer table that wrap inside themselves (a word whose
    // letters lie on two lines; a break at a hyphen or dash is between two words).
    var split = [];
    var table = document.getElementById('answers');
    if (table) {
      var walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
      var node;
      while ((node = walker.nextNode())) {
        var re = /[^\s\-\u2013]+/g, m;
        while ((m = re.exec(node.data)) !== null) {
          var range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          var tops = {};
          Array.prototype.forEach.call(range.getClientRects(), function (r) {
            if (r.width > 0) { tops[Math.round(r.top)] = true; }
          });
          if (Object.keys(tops).length > 1) { split.push(m[0]); }
        }
      }
    }
    root.setAttribute('data-split-words', String(split.length));
    root.setAttribute('data-split-words-what', split.slice(0, 8).join(' '));
  }
});
