// What a person would have to scroll for, or could not read, on the table: [] if nothing.
() => {
  const vw = innerWidth, vh = innerHeight;
  const out = [];
  const box = (e) => e.getBoundingClientRect();
  const shown = (e) => { const r = box(e); return r.width > 0 && r.height > 0; };
  const inside = (r) => r.left >= -1 && r.top >= -1 && r.right <= vw + 1 && r.bottom <= vh + 1;
  const name = (e) => e.className.baseVal ?? e.className;
  const de = document.documentElement;
  if (de.scrollHeight > vh + 1) out.push(`page scrolls down: ${de.scrollHeight} > ${vh}`);
  if (de.scrollWidth > vw + 1) out.push(`page scrolls sideways: ${de.scrollWidth} > ${vw}`);
  const status = document.querySelector('.status');
  if (!status || !inside(box(status))) out.push('status line outside the view');
  const trick = document.querySelector('.trick');
  const area = trick && shown(trick) ? trick : document.querySelector('.center');
  if (!area || !inside(box(area))) out.push(`trick area outside the view: ${JSON.stringify(area && box(area))}`);
  const cards = [...document.querySelectorAll('.hand .card')];
  if (!cards.length) out.push('no cards in the hand');
  for (const c of cards) if (!inside(box(c))) out.push(`card ${c.dataset.card} outside the view: ${JSON.stringify(box(c))}`);
  for (const b of document.querySelectorAll('.dock button, .dock select')) {
    if (!inside(box(b))) out.push(`control "${b.textContent}" outside the view`);
    if (box(b).height < 40) out.push(`control "${b.textContent}" under 40 px tall`);
    const r = box(b);
    const at = r.width && r.height ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
    if (at && !b.contains(at)) out.push(`control "${b.textContent}" covered by ${name(at)}`);
  }
  for (const b of document.querySelectorAll('.tabs .tab')) if (box(b).height < 40) out.push('tab under 40 px tall');
  for (const t of document.querySelectorAll('.tabs .tab-title')) {
    if (shown(t) && t.scrollWidth > t.clientWidth + 1) out.push(`tab "${t.textContent}" cut short`);
  }
  const seats = [...document.querySelectorAll('.seat')].filter(shown);
  for (const s of seats) if (!inside(box(s))) out.push(`seat ${s.dataset.seat} outside the view`);
  for (let i = 0; i < seats.length; i++) for (let j = i + 1; j < seats.length; j++) {
    const a = box(seats[i]), b = box(seats[j]);
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 1 && h > 1) out.push(`seats ${seats[i].dataset.seat} and ${seats[j].dataset.seat} overlap`);
  }
  // The middle of the felt shows all it holds: nothing of it is scrolled out of sight.
  for (const p of document.querySelectorAll('.center > .stage-panel')) {
    if (p.scrollHeight > p.clientHeight + 1) out.push(`middle panel cut short: ${p.scrollHeight} > ${p.clientHeight}`);
    if (p.scrollWidth > p.clientWidth + 1) out.push(`middle panel cut short sideways: ${p.scrollWidth} > ${p.clientWidth}`);
  }
  // Each of the bid helper's suits shows whole, and is what a finger on it would touch.
  for (const x of document.querySelectorAll('.helper-suit')) {
    const r = box(x);
    const at = r.width && r.height ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
    if (!r.width || !inside(r) || !at || !x.contains(at)) out.push(`helper "${x.textContent}" hidden or cut off`);
  }
  // A seat's bid bubble lies clear of the middle of the felt (the high bid, the trick).
  const apart = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) <= 1
    || Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) <= 1;
  const middle = [...document.querySelectorAll('.center > .stage-panel > *, .trick .card')].filter(shown);
  // The trick's cards lie between the seats (in the middle the table leaves them), over none of them.
  const mid = document.querySelector('.felt .center');
  for (const c of document.querySelectorAll('.trick .card')) {
    if (!shown(c)) continue;
    const r = box(c), m = mid && box(mid);
    if (m && (r.left < m.left - 2 || r.top < m.top - 2 || r.right > m.right + 2 || r.bottom > m.bottom + 2)) {
      out.push(`trick card ${c.dataset.id} reaches out of the middle: ${JSON.stringify(r)} ${JSON.stringify(m)}`);
    }
    for (const s of seats) {
      if (!apart(box(c), box(s))) out.push(`trick card ${c.dataset.id} overlaps seat ${s.dataset.seat}`);
    }
  }
  for (const b of document.querySelectorAll('.felt .seat .bubble')) {
    if (!shown(b)) continue;
    for (const m of middle) {
      if (!apart(box(b), box(m))) out.push(`bid bubble "${b.textContent}" overlaps "${m.textContent.slice(0, 30)}"`);
    }
  }
  return out;
}
