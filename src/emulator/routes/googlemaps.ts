// GET /v1/googlemaps/locations?country_code=…[&region=…][&district=…][&city=…] (changelog examples): the valid
// regions of a country, the cities of a region, the districts of a city, for Google Maps parameter tasks, as the
// examples page (google-maps-leads-scraper/get-geolocation) shows them: a JSON array of names. The emulator knows a
// few countries only. /v1/googlelocations is the Google Search crawler's place search (below).
import type { EmuCore } from '../emu.js';
import { detail, json } from '../util.js';

/** country → region → city → districts. */
const LOCATIONS: Record<string, Record<string, Record<string, string[]>>> = {
  US: {
    California: {
      'Los Angeles': ['Hollywood', 'Downtown', 'Venice'],
      'San Francisco': ['Mission District', 'SoMa'],
      'San Diego': [],
    },
    'New York': { 'New York City': ['Manhattan', 'Brooklyn', 'Queens', 'The Bronx', 'Staten Island'], Buffalo: [] },
    Texas: { Austin: [], Houston: ['Midtown'], Dallas: [] },
  },
  FR: {
    'Île-de-France': { Paris: ['1er arrondissement', '4e arrondissement', '11e arrondissement'], Versailles: [] },
    'Auvergne-Rhône-Alpes': { Lyon: ['1er arrondissement', '2e arrondissement'], Grenoble: [] },
    "Provence-Alpes-Côte d'Azur": { Marseille: [], Nice: [] },
  },
  DE: {
    Berlin: { Berlin: ['Mitte', 'Kreuzberg', 'Prenzlauer Berg'] },
    Bayern: { München: ['Altstadt', 'Schwabing'], Nürnberg: [] },
  },
  GB: {
    England: { London: ['Camden', 'Westminster', 'Hackney'], Manchester: [] },
    Scotland: { Edinburgh: [], Glasgow: [] },
  },
};

/** A name as given matched case-insensitively against the known ones; the stored spelling, or undefined. */
function find(names: string[], given: string): string | undefined {
  const g = given.trim().toLowerCase();
  return names.find((n) => n.toLowerCase() === g);
}

const unknown = (what: string, given: string, allowed: string[]) =>
  detail(400, `Unknown ${what} "${given}". Allowed: ${allowed.join(', ')}.`);

export function registerGoogleMaps(emu: EmuCore): void {
  const handler = (req: Parameters<Parameters<EmuCore['route']>[2]>[0]) => {
    const q = (k: string) => req.query.get(k)?.trim() || undefined;
    const code = q('country_code')?.toUpperCase();
    if (!code) return detail(400, 'country_code is required.');
    const country = Object.hasOwn(LOCATIONS, code) ? LOCATIONS[code] : undefined;
    if (!country) return unknown('country_code', code, Object.keys(LOCATIONS));
    const given = { region: q('region'), district: q('district'), city: q('city') };
    if (!given.region) {
      if (given.city || given.district) return detail(400, 'region is required with city or district.');
      return json(200, Object.keys(country));
    }
    const region = find(Object.keys(country), given.region);
    if (!region) return unknown('region', given.region, Object.keys(country));
    const cities = country[region];
    if (!given.city) {
      if (given.district) return detail(400, 'city is required with district.');
      return json(200, Object.keys(cities));
    }
    const city = find(Object.keys(cities), given.city);
    if (!city) return unknown('city', given.city, Object.keys(cities));
    const districts = cities[city];
    if (given.district && !find(districts, given.district))
      return unknown('district', given.district, districts.length ? districts : ['(none)']);
    const shown = given.district ? [find(districts, given.district)!] : districts;
    return json(200, shown);
  };
  emu.route('GET', '/v1/googlemaps/locations', handler);
  emu.route('GET', '/v1/googlelocations', (req) => searchLocations(req.query));
}

const COUNTRY_NAMES: Record<string, string> = {
  US: 'United States',
  FR: 'France',
  DE: 'Germany',
  GB: 'United Kingdom',
};
/** The get-geolocation sample's places beside the table's regions and cities (Alabama is not in the table). */
const SAMPLED = [
  'Alabama',
  "Alabama's 1st Congressional District 2022 redistricting,Alabama",
  'The University of Alabama,Alabama',
  'University of Alabama at Birmingham,Alabama',
];

interface Place {
  name: string;
  canonical_name: string;
  country_name: string;
  country_code: string;
}

function places(): Place[] {
  const out: Place[] = [];
  const add = (code: string, path: string[]) => {
    const country = COUNTRY_NAMES[code];
    out.push({
      name: path[0],
      canonical_name: [...path, country].join(','),
      country_name: country,
      country_code: code,
    });
  };
  for (const s of SAMPLED) add('US', s.split(','));
  for (const [code, regions] of Object.entries(LOCATIONS)) {
    for (const [region, cities] of Object.entries(regions)) {
      add(code, [region]);
      for (const city of Object.keys(cities)) if (city !== region) add(code, [city, region]);
    }
  }
  return out;
}

/**
 * GET /v1/googlelocations?q=…[&country_name=…] (examples/google-search-scraper/get-geolocation): the places whose
 * name contains `q`, in one country when `country_name` is given, as {success, data: [{name, canonical_name,
 * country_name, country_code}]}. The emulator knows the table's countries and the sample's places only.
 */
function searchLocations(query: URLSearchParams) {
  const q = query.get('q')?.trim().toLowerCase();
  if (!q) return detail(400, 'q is required (a place name to search, e.g. "Alabama").');
  const country = query.get('country_name')?.trim().toLowerCase();
  if (country && !Object.values(COUNTRY_NAMES).some((n) => n.toLowerCase() === country))
    return unknown('country_name', query.get('country_name') ?? '', Object.values(COUNTRY_NAMES));
  const data = places().filter(
    (p) => p.name.toLowerCase().includes(q) && (!country || p.country_name.toLowerCase() === country),
  );
  return json(200, { success: true, data });
}
