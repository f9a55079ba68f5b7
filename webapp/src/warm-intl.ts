/*
 * A classic async script in the mini-app's <head> (vite.config.ts warmIntl; no imports, no exports), run while the bundle
 * downloads: a page's first Intl formatter costs ~25 ms (~100 ms on a phone 4× slower) for ICU to
 * load its locale data. Paid here, on a main thread that would otherwise wait for the network, the
 * first screen's prices and dates are formatted without that long task.
 */
try {
  new Intl.NumberFormat('ru').format(0);
  new Intl.DateTimeFormat('ru', { month: 'long' }).format(0);
} catch {
  // No Intl: the page formats without it, or not at all.
}
