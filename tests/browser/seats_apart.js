// Seats that overlap each other or a card of the trick on the felt: [] when all stand apart.
() => {
  const out = [];
  const box = (e) => e.getBoundingClientRect();
  const shown = (e) => { const r = box(e); return r.width > 0 && r.height > 0; };
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const seats = [...document.querySelectorAll('.felt .seat')].filter(shown);
  for (let i = 0; i < seats.length; i++) for (let j = i + 1; j < seats.length; j++) {
    if (meet(box(seats[i]), box(seats[j]))) out.push(`seats ${seats[i].dataset.seat} and ${seats[j].dataset.seat} overlap`);
  }
  for (const s of seats) {
    for (const c of document.querySelectorAll('.trick .play .card')) {
      if (shown(c) && meet(box(s), box(c))) out.push(`seat ${s.dataset.seat} covers the trick's card ${c.closest('.play').dataset.seat}`);
    }
  }
  return out;
}
