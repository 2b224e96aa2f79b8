// zipcodes ships no type declarations (and there is no @types package): this covers the part of its
// API the offline geocoder uses. See node_modules/zipcodes/lib/index.js.
declare module 'zipcodes' {
  export interface ZipCode {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  const zipcodes: {
    /** A US ZIP (5 digits) or a Canadian postal code prefix; undefined when unknown. */
    lookup(zip: string | number): ZipCode | undefined;
    /** Every ZIP of a city in a state (city compared case-insensitively; state as code or name). */
    lookupByName(city: string, state: string): ZipCode[];
  };
  export default zipcodes;
}
