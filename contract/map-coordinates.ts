/**
 * Coordinates carried by a Google Maps, Yandex Maps or OpenStreetMap link, when it has them
 * (short links such as maps.app.goo.gl carry none). Yandex writes longitude first.
 */
export interface Coordinates {
  latitude: number;
  longitude: number;
}

const NUM = '(-?\\d{1,3}(?:\\.\\d+)?)';

const valid = (lat: number, lon: number): Coordinates | null =>
  Number.isFinite(lat) &&
  Number.isFinite(lon) &&
  Math.abs(lat) <= 90 &&
  Math.abs(lon) <= 180 &&
  (lat !== 0 || lon !== 0)
    ? { latitude: lat, longitude: lon }
    : null;

function pair(text: string | null, lonFirst: boolean): Coordinates | null {
  const m = text?.match(new RegExp(`^\\s*${NUM}\\s*,\\s*${NUM}`));
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return lonFirst ? valid(b, a) : valid(a, b);
}

export function coordinatesFromMapLink(link: string): Coordinates | null {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  const q = url.searchParams;
  const decoded = decodeURIComponent(url.pathname + url.hash);
  if (/(^|\.)yandex\.[a-z]+$|(^|\.)ya\.ru$/.test(host)) {
    return pair(q.get('pt'), true) ?? pair(q.get('whatshere[point]'), true) ?? pair(q.get('ll'), true);
  }
  if (/(^|\.)openstreetmap\.org$|(^|\.)osm\.org$/.test(host)) {
    const marker = valid(Number(q.get('mlat') ?? NaN), Number(q.get('mlon') ?? NaN));
    if (marker) return marker;
    const hash = url.hash.match(new RegExp(`map=\\d+/${NUM}/${NUM}`));
    return hash ? valid(Number(hash[1]), Number(hash[2])) : null;
  }
  if (/(^|\.)google\.[a-z.]+$|^goo\.gl$/.test(host) || host.startsWith('maps.google.')) {
    const place = decoded.match(new RegExp(`!3d${NUM}!4d${NUM}`));
    if (place) return valid(Number(place[1]), Number(place[2]));
    return (
      pair(q.get('q'), false) ??
      pair(q.get('query'), false) ??
      pair(q.get('ll'), false) ??
      pair(q.get('destination'), false) ??
      pair(
        decoded
          .match(new RegExp(`@${NUM},${NUM}`))
          ?.slice(1, 3)
          .join(',') ?? null,
        false,
      )
    );
  }
  return null;
}

/**
 * An address as saved: when the map link carries coordinates and the caller gave none, they are
 * taken from the link (coordinates given explicitly, even null, always win).
 */
export function withCoordinates<T extends { map_link?: string; latitude?: number | null; longitude?: number | null }>(
  a: T,
): T {
  if (a.map_link === undefined || a.latitude !== undefined || a.longitude !== undefined) return a;
  const c = coordinatesFromMapLink(a.map_link);
  return c ? { ...a, ...c } : a;
}
