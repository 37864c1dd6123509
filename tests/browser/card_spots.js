// Where each card of the hand can be touched. For every card (in hand order) the page is
// sampled every 2 px over the card's box; at each point where the card itself is on top,
// the uncovered stretch through it is measured across and down. The card's spot is the
// point whose shorter stretch is longest: {id, width, height, x, y} (width and height of
// the uncovered stretches through the point, 0 if the card is hidden).
() => {
  const step = 2;
  return [...document.querySelectorAll('.hand .card')].map((el) => {
    const r = el.getBoundingClientRect();
    const xs = [], ys = [];
    for (let x = Math.ceil(r.left) + 1; x < r.right - 1; x += step) xs.push(x);
    for (let y = Math.ceil(r.top) + 1; y < r.bottom - 1; y += step) ys.push(y);
    const own = ys.map((y) => xs.map((x) => {
      const hit = document.elementFromPoint(x, y);
      return Boolean(hit && hit.closest('.card') === el);
    }));
    const across = ys.map(() => xs.map(() => 0));
    const down = ys.map(() => xs.map(() => 0));
    ys.forEach((_, i) => {
      let j = 0;
      while (j < xs.length) {
        if (!own[i][j]) { j++; continue; }
        let k = j;
        while (k < xs.length && own[i][k]) k++;
        for (let m = j; m < k; m++) across[i][m] = (k - j) * step;
        j = k;
      }
    });
    xs.forEach((_, j) => {
      let i = 0;
      while (i < ys.length) {
        if (!own[i][j]) { i++; continue; }
        let k = i;
        while (k < ys.length && own[k][j]) k++;
        for (let m = i; m < k; m++) down[m][j] = (k - i) * step;
        i = k;
      }
    });
    let best = { id: el.dataset.id, width: 0, height: 0, x: null, y: null };
    let score = -1;
    ys.forEach((y, i) => xs.forEach((x, j) => {
      if (!own[i][j]) return;
      const s = Math.min(across[i][j], down[i][j]) * 1000 + across[i][j] + down[i][j];
      if (s > score) { score = s; best = { id: el.dataset.id, width: across[i][j], height: down[i][j], x, y }; }
    }));
    if (best.x === null) return best;
    // The middle of the uncovered stretches through the chosen point.
    const i0 = ys.indexOf(best.y), j0 = xs.indexOf(best.x);
    let a = j0, b = j0, c = i0, d = i0;
    while (a > 0 && own[i0][a - 1]) a--;
    while (b < xs.length - 1 && own[i0][b + 1]) b++;
    while (c > 0 && own[c - 1][j0]) c--;
    while (d < ys.length - 1 && own[d + 1][j0]) d++;
    return { ...best, x: (xs[a] + xs[b]) / 2, y: (ys[c] + ys[d]) / 2 };
  });
}
