import { randomUUID } from 'node:crypto';
import { getTableColumns, getTableName, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '#server/db/client.ts';
import {
  adminNotifications,
  aiConversations,
  aiLeads,
  customerSearch,
  customers,
  equipment,
  estimateRequests,
  inspectionReports,
  maintenanceAgreementEquipment,
  maintenanceAgreements,
  maintenanceAgreementTerms,
  technicians,
  workOrderSearch,
  workOrders,
  workOrderTasks,
} from '#server/db/schema/index.ts';
import {
  estimateTimePreferences,
  leadSources,
  leadStatuses,
  workOrderStatuses,
  type refrigerantTypes,
  type tonnages,
  type EstimateServiceType,
  type LeadSource,
  type LeadStatus,
  type WorkOrderPriority,
  type WorkOrderServiceType,
  type WorkOrderStatus,
} from '#shared/enums.ts';
import type { ChatIntent, ChatUrgency } from '#shared/chat.ts';
import { estimatePriority } from '#shared/estimates.ts';
import { addMonths } from '#shared/agreement.ts';
import { addDays } from '#shared/dates.ts';
import { maintenancePlanIds, planPriceCents, type MaintenancePlanId } from '#shared/maintenance-plans.ts';
import { assignDemoLocations } from './locations.ts';
import { seedPriceBook } from './price-book.ts';

/**
 * Demo data for a heating and air-conditioning company in the South Carolina Low Country.
 *
 * The content (names, addresses, dates, statuses...) is deterministic for a given `random` and
 * `now`; row ids are random UUIDs so that seeding twice into the same database only adds rows.
 * Dates are calendar dates in the business time zone; instants (started_at, completed_at...) are
 * the matching wall-clock times in that zone. Rows are built in memory and inserted in multi-row
 * statements inside one transaction; into a fresh database the secondary indexes and foreign keys
 * come after the rows, and one ANALYZE at the end (decision 020-d).
 */

export type SeedDemoOptions = {
  customers?: number;
  workOrders?: number;
  now?: Date;
  timeZone?: string;
  random?: () => number;
};

export type SeedDemoResult = {
  customers: number;
  workOrders: number;
  /** Technicians created (0 when existing technicians were reused). */
  technicians: number;
  estimateRequests: number;
  aiConversations: number;
  aiLeads: number;
  /** Maintenance agreements (MAX_DEMO_AGREEMENTS at most). */
  agreements: number;
};

export const DEFAULT_SEED = 20261121;
/** Service dates run from at least this many days before today... */
export const WORK_ORDER_DAYS_BACK = 42;
/** ...to this many days after today (business time zone). */
export const WORK_ORDER_DAYS_AHEAD = 21;
/**
 * About how many work orders a busy company has per day (some 300 appointments a week on the
 * calendar). A large seed reaches further back instead of packing more into each day: 100,000
 * work orders are five years of history, not 1,600 jobs a day.
 */
export const WORK_ORDERS_PER_DAY = 55;

/** How far back service dates reach for this many work orders. */
export function workOrderDaysBack(count: number): number {
  return Math.max(WORK_ORDER_DAYS_BACK, Math.ceil(count / WORK_ORDERS_PER_DAY) - WORK_ORDER_DAYS_AHEAD);
}

const MAX_ESTIMATE_REQUESTS = 2000;
const MAX_AI_CONVERSATIONS = 2000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type CustomerRow = typeof customers.$inferInsert & { id: string; createdAt: Date };
type EquipmentRow = typeof equipment.$inferInsert & { id: string };
type EstimateRow = typeof estimateRequests.$inferInsert & { id: string; createdAt: Date };
type WorkOrderRow = typeof workOrders.$inferInsert & { id: string; createdAt: Date };
type ConversationRow = typeof aiConversations.$inferInsert & { createdAt: Date };
type AiLeadRow = typeof aiLeads.$inferInsert & { id: string; createdAt: Date };

// Random helpers ---------------------------------------------------------------------------------

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Weighted<T> = readonly (readonly [T, number])[];

class Rng {
  constructor(readonly next: () => number) {}
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  weighted<T>(items: Weighted<T>): T {
    let total = 0;
    for (const [, weight] of items) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of items) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return items[items.length - 1]![0];
  }
  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, Math.min(count, copy.length));
  }
  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i += 1) out += String(Math.floor(this.next() * 10));
    return out;
  }
  letters(count: number, alphabet = 'ABCDEFGHJKLMNPRSTVWXYZ'): string {
    let out = '';
    for (let i = 0; i < count; i += 1) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

// Calendar dates in the business time zone ---------------------------------------------------------

class BusinessCalendar {
  private readonly partsFormat: Intl.DateTimeFormat;
  private readonly offsetCache = new Map<string, number>();

  constructor(readonly timeZone: string) {
    this.partsFormat = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  }

  private wallClock(instant: number): { y: number; m: number; d: number; h: number; min: number; s: number } {
    const parts: Record<string, string> = {};
    for (const part of this.partsFormat.formatToParts(new Date(instant))) parts[part.type] = part.value;
    return {
      y: Number(parts.year),
      m: Number(parts.month),
      d: Number(parts.day),
      h: Number(parts.hour) % 24,
      min: Number(parts.minute),
      s: Number(parts.second),
    };
  }

  /** The calendar date (YYYY-MM-DD) of an instant in the business time zone. */
  ymd(instant: Date | number): string {
    const { y, m, d } = this.wallClock(typeof instant === 'number' ? instant : instant.getTime());
    return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`;
  }

  /** Minutes the zone is ahead of UTC at an instant. */
  private offsetAt(instant: number): number {
    const { y, m, d, h, min, s } = this.wallClock(instant);
    const asUtc = Date.UTC(y, m - 1, d, h, min, s);
    return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / MINUTE);
  }

  /** The instant of a wall-clock time on a business calendar date. */
  instant(ymd: string, hour: number, minute = 0): number {
    const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
    const wall = Date.UTC(y, m - 1, d, hour, minute);
    if (hour >= 4 && hour <= 23) {
      // Business hours are far from the 2 AM daylight-saving switch: one offset per date.
      let offset = this.offsetCache.get(ymd);
      if (offset === undefined) {
        const noon = Date.UTC(y, m - 1, d, 12);
        offset = this.offsetAt(noon - this.offsetAt(noon) * MINUTE);
        this.offsetCache.set(ymd, offset);
      }
      return wall - offset * MINUTE;
    }
    const first = wall - this.offsetAt(wall) * MINUTE;
    return wall - this.offsetAt(first) * MINUTE;
  }
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/** Kept for callers of the seed module; the helper lives in shared/dates.ts. */
export { addDays };

/** 0 = Sunday ... 6 = Saturday. */
function weekday(ymd: string): number {
  return new Date(`${ymd}T00:00:00Z`).getUTCDay();
}

/**
 * A moment between fromHour and toHour (local) on a business date that is not in the future; on
 * today's date before that window it falls back to a moment since midnight.
 */
function momentOn(rng: Rng, calendar: BusinessCalendar, ymd: string, fromHour: number, toHour: number, nowMs: number): number {
  const moment = calendar.instant(ymd, rng.int(fromHour, toHour), rng.int(0, 59));
  if (moment <= nowMs - MINUTE) return moment;
  const dayStart = calendar.instant(ymd, 0);
  if (dayStart >= nowMs - MINUTE) return nowMs - rng.int(1, 30) * MINUTE;
  return dayStart + Math.floor(rng.next() * (nowMs - MINUTE - dayStart));
}

function hhmmss(hour: number): string {
  return `${pad2(hour)}:00:00`;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

// Reference content --------------------------------------------------------------------------------

type Town = { city: string; zip: string; streets: readonly string[] };

const NEIGHBORHOOD_STREETS = [
  'Marsh Hawk Ln',
  'Sweetgrass Ln',
  'Live Oak Dr',
  'Egret Way',
  'Pelican Cir',
  'Blue Heron Dr',
  'Spanish Moss Ct',
  'Oyster Shell Ln',
  'Tabby Ct',
  'Palmetto Ln',
  'Cypress Bend Dr',
  'Magnolia Ave',
  'Sea Oats Ct',
  'Tidewater Ct',
  'Marsh View Dr',
  'Fiddler Crab Way',
  'Creekside Dr',
  'Osprey Nest Ln',
  'Loblolly Pine Ct',
  'Pluff Mud Ln',
  'Salt Marsh Cir',
  'Wood Stork Way',
  'Camellia Ct',
  'Indigo Dr',
] as const;

const TOWNS: Weighted<Town> = [
  [
    {
      city: 'Bluffton',
      zip: '29910',
      streets: ['May River Rd', 'Bluffton Pkwy', 'Buckwalter Pkwy', 'Burnt Church Rd', 'Calhoun St', 'Bridge St', 'Boundary St', 'Pritchard St', 'Goethe Rd', 'Simmonsville Rd', 'Pinckney Colony Rd', 'Alljoy Rd', 'Hampton Pkwy', 'Fording Island Rd', 'Lawton Station Dr'],
    },
    0.24,
  ],
  [
    {
      city: 'Bluffton',
      zip: '29909',
      streets: ['Del Webb Blvd', 'Sun City Blvd', 'Okatie Hwy', 'Hampton Hall Blvd', 'Island West Dr', 'Fording Island Rd', 'Pinecrest Way'],
    },
    0.08,
  ],
  [
    {
      city: 'Hilton Head Island',
      zip: '29926',
      streets: ['William Hilton Pkwy', 'Squire Pope Rd', 'Spanish Wells Rd', 'Mathews Dr', 'Gumtree Rd', 'Beach City Rd', 'Dillon Rd', 'Marshland Rd', 'Indigo Run Dr', 'Port Royal Dr', 'Jenkins Island Rd'],
    },
    0.13,
  ],
  [
    {
      city: 'Hilton Head Island',
      zip: '29928',
      streets: ['Pope Ave', 'Palmetto Bay Rd', 'Greenwood Dr', 'Deallyon Ave', 'Arrow Rd', 'Cordillo Pkwy', 'Lighthouse Rd', 'S Forest Beach Dr', 'N Forest Beach Dr', 'Queens Folly Rd', 'Shelter Cove Ln', 'Plantation Dr'],
    },
    0.12,
  ],
  [
    {
      city: 'Okatie',
      zip: '29909',
      streets: ['Okatie Hwy', 'Riverwalk Blvd', 'Sawmill Creek Rd', 'Chelsea Plantation Dr', 'Cherry Point Rd', 'Island West Dr'],
    },
    0.08,
  ],
  [
    {
      city: 'Beaufort',
      zip: '29902',
      streets: ['Boundary St', 'Bay St', 'Carteret St', 'Bladen St', 'Craven St', 'Ribaut Rd', 'Hermitage Rd', 'North St', 'Allison Rd', 'Greene St'],
    },
    0.07,
  ],
  [
    {
      city: 'Beaufort',
      zip: '29906',
      streets: ['Robert Smalls Pkwy', 'Broad River Blvd', 'Joe Frazier Rd', 'Burton Hill Rd', 'Salem Rd', 'Parris Island Gateway', 'Shanklin Rd'],
    },
    0.05,
  ],
  [
    {
      city: 'Beaufort',
      zip: '29907',
      streets: ['Sea Island Pkwy', 'Sams Point Rd', "Lady's Island Dr", 'Brickyard Point Rd', 'Chowan Creek Bluff', 'Meridian Rd'],
    },
    0.04,
  ],
  [
    {
      city: 'Hardeeville',
      zip: '29927',
      streets: ['Grober Hill Rd', 'Main St', 'Whyte Hardee Blvd', 'Argent Blvd', 'Purrysburg Rd', 'Hwy 46', 'Church Rd'],
    },
    0.07,
  ],
  [
    {
      city: 'Ridgeland',
      zip: '29936',
      streets: ['Jacob Smart Blvd', 'Main St', 'Grahamville Rd', 'Bees Creek Rd', 'Tillman Rd', 'Wagon Branch Rd'],
    },
    0.06,
  ],
  [
    {
      city: 'Port Royal',
      zip: '29935',
      streets: ['Ribaut Rd', 'Paris Ave', 'Parris Island Gateway', 'Old Shell Rd', 'Richmond Ave', 'London Ave', 'Columbia Ave'],
    },
    0.06,
  ],
];

const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth',
  'David', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
  'Christopher', 'Nancy', 'Daniel', 'Lisa', 'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra',
  'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua', 'Michelle',
  'Kenneth', 'Carol', 'Kevin', 'Amanda', 'Brian', 'Melissa', 'George', 'Deborah', 'Timothy', 'Stephanie',
  'Ronald', 'Rebecca', 'Jason', 'Laura', 'Ryan', 'Sharon', 'Jacob', 'Cynthia', 'Gary', 'Kathleen',
  'Nicholas', 'Amy', 'Eric', 'Shirley', 'Jonathan', 'Angela', 'Stephen', 'Helen', 'Larry', 'Anna',
  'Justin', 'Brenda', 'Scott', 'Pamela', 'Brandon', 'Nicole', 'Benjamin', 'Samantha', 'Samuel', 'Katherine',
  'Tyler', 'Caroline', 'Wade', 'Savannah', 'Beau', 'Mary Beth', 'Harold', 'Loretta', 'Calvin', 'Gwendolyn',
  'Marcus', 'Tamika', 'Andre', 'Latoya', 'Luis', 'Maria', 'Carlos', 'Rosa', 'Miguel', 'Ana',
] as const;

const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Wilson', 'Anderson', 'Taylor', 'Thomas', 'Moore', 'Jackson', 'Martin', 'Lee', 'Thompson', 'White',
  'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott',
  'Green', 'Baker', 'Adams', 'Nelson', 'Hill', 'Campbell', 'Mitchell', 'Roberts', 'Carter', 'Phillips',
  'Evans', 'Turner', 'Parker', 'Collins', 'Edwards', 'Stewart', 'Morris', 'Murphy', 'Cook', 'Rogers',
  'Pinckney', 'Heyward', 'Rutledge', 'Middleton', 'Grayson', 'Simmons', 'Gadsden', 'Ravenel', 'Legare', 'Manigault',
  'Fripp', 'Chaplin', 'Elliott', 'Verdier', 'Barnwell', 'Seabrook', 'Drayton', 'Huger', 'Brantley', 'Jenkins',
  'Frazier', 'Bryan', 'Orr', 'Hutto', 'Crosby', 'Mixson', 'Sanders', 'Brooks', 'Coleman', 'Reid',
  'Hamilton', 'Ford', 'Graham', 'Sullivan', 'Wallace', 'Woods', 'Cole', 'West', 'Jordan', 'Owens',
  'Reynolds', 'Fisher', 'Ellis', 'Harrison', 'Gibson', 'McDonald', 'Cruz', 'Marshall', 'Ortiz', 'Gomez',
] as const;

const BUSINESS_PREFIXES = [
  'Palmetto', 'Sea Pines', 'Low Country', 'May River', 'Tidewater', 'Sweetgrass', 'Marsh Hawk', 'Calibogue',
  'Port Royal Sound', 'Shelter Cove', 'Coligny', 'Live Oak', 'Okatie', 'Broad River', 'Harbour Town', 'Beaufort Bay',
  'Pinckney Island', 'Heron Point', 'Lady\'s Island', 'Old Town Bluffton', 'Daufuskie', 'Salt Marsh',
] as const;

const BUSINESS_SUFFIXES = [
  'Dental Group', 'Property Management', 'Veterinary Clinic', 'Family Medicine', 'Realty', 'Seafood Co.',
  'Presbyterian Church', 'Animal Hospital', 'Pediatrics', 'Self Storage', 'Fitness', 'Insurance Agency',
  'Bakery', 'Outfitters', 'Inn', 'Oyster Bar', 'Montessori School', 'Chiropractic', 'Ace Hardware',
  'Marine Supply', 'Owners Association', 'Physical Therapy', 'Title & Escrow', 'Dermatology', 'Coffee Roasters',
] as const;

const CUSTOMER_NOTES = [
  'Gate code 4512',
  'Gate code #1987 at the front entrance',
  'Dog in backyard — call before entering',
  'Two friendly labs inside, owner will crate them',
  'Prefers text messages over calls',
  'Maintenance plan: Essential',
  'Maintenance plan: Advanced',
  'Maintenance plan: Premium',
  'Attic access through the garage ceiling hatch',
  'Condenser on raised platform (flood zone AE)',
  'Air handler in upstairs hall closet',
  'Sun City resident — visitor pass needed at the gate',
  'Elderly homeowner; please call her daughter before arriving',
  'Rental property — tenant will let you in',
  'Second home; owner lives in Ohio, call cell',
  'Park on the street, driveway is shell/gravel',
  'Heat pump replaced after Hurricane Matthew',
  'Prefers morning appointments',
  'Crawlspace entry on the left side of the house',
  'Allergies in the household — MERV 11 filters',
] as const;

const COMMERCIAL_NOTES = [
  'Service after 5 PM only — patients during the day',
  'Check in with the front desk; rooftop access by ladder in the back hall',
  'Two 5-ton RTUs on the roof, one split system for the office',
  'Quarterly PM agreement',
  'Property manager approves repairs over $500',
  'Keys held by the office manager',
] as const;

type BrandInfo = { brand: string; model: (tonCode: string, rng: Rng) => string; serial: (year: number, rng: Rng) => string };

const BRANDS: Weighted<BrandInfo> = [
  [{ brand: 'Carrier', model: (t, r) => `${r.pick(['24ACC6', '25HCB6', '24ABC6', '25VNA8'])}${t}A003`, serial: (y, r) => `${pad2(r.int(1, 52))}${pad2(y % 100)}E${r.digits(5)}` }, 18],
  [{ brand: 'Trane', model: (t, r) => `${r.pick(['4TTR4', '4TWR5', '4TTR6', '4TWR7'])}0${t}${r.pick(['H1000A', 'L1000A', 'A1000A'])}`, serial: (y, r) => `${pad2(y % 100)}${pad2(r.int(1, 52))}${r.digits(5)}${r.letters(1)}` }, 16],
  [{ brand: 'Goodman', model: (t, r) => `${r.pick(['GSXC16', 'GSZ14', 'GSX14', 'GSZC18'])}0${t}1`, serial: (y, r) => `${pad2(y % 100)}${pad2(r.int(1, 12))}${r.digits(6)}` }, 14],
  [{ brand: 'Lennox', model: (t, r) => `${r.pick(['ML14XC1', 'XC21', 'EL16XP1', 'XP25'])}-0${t}-230A`, serial: (y, r) => `${r.pick(['58', '19', '56'])}${pad2(y % 100)}${r.letters(1, 'ABCDEFGHJKLM')}${r.digits(5)}` }, 12],
  [{ brand: 'Rheem', model: (t, r) => `${r.pick(['RA14', 'RA16', 'RP15', 'RA17'])}${t}AJ1NA`, serial: (y, r) => `W${pad2(r.int(1, 12))}${pad2(y % 100)}${r.digits(5)}` }, 10],
  [{ brand: 'American Standard', model: (t, r) => `${r.pick(['4A7A4', '4A6H5', '4A7A6'])}0${t}${r.pick(['H1000A', 'A1000A'])}`, serial: (y, r) => `${pad2(y % 100)}${pad2(r.int(1, 52))}${r.digits(5)}${r.letters(1)}` }, 8],
  [{ brand: 'Bryant', model: (t, r) => `${r.pick(['125ANA', '215BNA', '113ANA'])}0${t}000`, serial: (y, r) => `${pad2(r.int(1, 52))}${pad2(y % 100)}E${r.digits(5)}` }, 7],
  [{ brand: 'Daikin', model: (t, r) => `${r.pick(['DX16SA', 'DZ17VC', 'DX14SA'])}0${t}1`, serial: (y, r) => `${pad2(y % 100)}${pad2(r.int(1, 12))}${r.digits(6)}` }, 6],
  [{ brand: 'Ruud', model: (t, r) => `${r.pick(['UA16AZ', 'UP14AZ', 'RA14AZ'])}${t}AJ3NA`, serial: (y, r) => `W${pad2(r.int(1, 12))}${pad2(y % 100)}${r.digits(5)}` }, 5],
  [{ brand: 'York', model: (t, r) => `${r.pick(['YCE', 'YHE', 'YCG'])}${t}B21S`, serial: (y, r) => `W${r.letters(1, 'ABCDEFGHJKLM')}${pad2(y % 100)}${r.digits(7)}` }, 4],
];

type Tonnage = (typeof tonnages)[number];
const RESIDENTIAL_TONNAGE: Weighted<Tonnage> = [['1.5', 4], ['2', 10], ['2.5', 15], ['3', 25], ['3.5', 16], ['4', 16], ['5', 11], ['other', 3]];
const COMMERCIAL_TONNAGE: Weighted<Tonnage> = [['3', 10], ['4', 15], ['5', 40], ['other', 35]];
const TON_CODE: Record<Tonnage, string> = { '1.5': '18', '2': '24', '2.5': '30', '3': '36', '3.5': '42', '4': '48', '5': '60', other: '90' };
type Refrigerant = (typeof refrigerantTypes)[number];

/** Outdoor units take the brand's condenser/heat pump model; the others have their own patterns. */
const EQUIPMENT_TYPES: Weighted<{ type: string; locations: readonly string[]; model?: (tonCode: string, rng: Rng) => string }> = [
  [{ type: 'Heat pump', locations: ['Side yard', 'Back yard', 'Raised platform'] }, 30],
  [{ type: 'Air handler', locations: ['Attic', 'Garage', 'Hall closet', 'Crawlspace'], model: (t, r) => `${r.pick(['FV4CNF0', 'AMVT', 'CBA25UH-0', 'TAM7A0', 'RH2T'])}${t}${r.pick(['', 'B', 'C'])}` }, 25],
  [{ type: 'Condenser', locations: ['Side yard', 'Back yard', 'Roof'] }, 15],
  [{ type: 'Gas furnace', locations: ['Attic', 'Garage', 'Utility closet'], model: (_t, r) => `${r.pick(['59SC5A', 'GM9S96', 'ML296UH', 'R96VA', 'S9V2B'])}0${r.pick(['60', '80'])}${r.pick(['E17', 'BN', 'C36'])}` }, 10],
  [{ type: 'Mini-split', locations: ['Bonus room', 'Sunroom', 'Garage workshop'], model: (_t, r) => `${r.pick(['FTX', 'MSZ', 'DLCS'])}${r.pick(['09', '12', '18'])}${r.letters(2, 'ABCGNRW')}` }, 10],
  [{ type: 'Packaged rooftop unit', locations: ['Roof'], model: (_t, r) => `${r.pick(['48FC', 'YSC', 'RKNL-'])}0${r.pick(['60', '90', '120'])}${r.letters(1, 'ABCD')}` }, 5],
  [{ type: 'Dehumidifier', locations: ['Crawlspace', 'Attic'], model: (_t, r) => `${r.pick(['DH70', 'DH95', 'CD55'])}-${r.letters(1, 'ABC')}` }, 5],
];

type JobTemplate = { title: string; description: string };
type ServiceTemplates = Record<WorkOrderServiceType, (ctx: { month: number; tonnage: string }) => JobTemplate[]>;

const WORK_ORDER_TEMPLATES: ServiceTemplates = {
  repair: () => [
    { title: 'AC not cooling', description: 'Customer reports the system runs but the house will not get below 80°F. Check refrigerant charge, capacitor and condenser fan.' },
    { title: 'Heat pump short cycling', description: 'Heat pump turns on and off every few minutes. Inspect thermostat wiring, pressure switches and refrigerant charge.' },
    { title: 'Refrigerant leak check', description: 'Unit has needed refrigerant twice in two years. Perform electronic leak search on the evaporator coil and line set.' },
    { title: 'Water leaking from air handler', description: 'Water on the ceiling below the attic air handler. Likely clogged condensate line; check the float switch and secondary pan.' },
    { title: 'Outdoor unit not running', description: 'Indoor blower runs but the condenser is silent. Check the contactor, disconnect and dual run capacitor.' },
    { title: 'Loud buzzing from condenser', description: 'Homeowner hears a loud buzz from the outdoor unit at start-up. Suspect failing capacitor or contactor.' },
    { title: 'Ice on refrigerant lines', description: 'Frost on the suction line and the indoor coil. Check airflow, filter and charge.' },
    { title: 'No heat — heat pump stuck in defrost', description: 'System blows cool air in heat mode. Check the defrost board, reversing valve and outdoor sensor.' },
    { title: 'Breaker trips when AC starts', description: 'Breaker trips within a minute of the compressor starting. Test compressor windings and start components.' },
    { title: 'Thermostat blank / not responding', description: 'Thermostat display is blank. Check the float switch, low-voltage fuse and transformer.' },
    { title: 'Musty smell from vents', description: 'Musty odor when the system runs. Inspect coil, drain pan and ductwork for microbial growth; check humidity levels.' },
    { title: 'Upstairs too warm', description: 'Upstairs is 6-8 degrees warmer than downstairs. Check the upstairs unit, dampers and return air.' },
  ],
  maintenance: ({ month }) =>
    month >= 8 || month <= 1
      ? [
          { title: 'Fall heating tune-up', description: 'Seasonal heating check: heat strips, reversing valve, defrost cycle, electrical connections and filter.' },
          { title: 'Maintenance plan visit — heating', description: 'Plan visit: inspect heat pump in heat mode, test auxiliary heat, flush drain line, replace filter.' },
          { title: 'Gas furnace safety check', description: 'Inspect burners, flame sensor, heat exchanger and CO levels before the heating season.' },
          { title: 'Commercial RTU quarterly PM', description: 'Quarterly preventive maintenance on rooftop units: filters, belts, coils and economizer check.' },
        ]
      : [
          { title: 'Spring AC tune-up', description: 'Seasonal cooling check: clean condenser coil, test capacitor, check charge and temperature split, flush drain.' },
          { title: 'Maintenance plan visit — cooling', description: 'Plan visit before the summer: coil cleaning, electrical inspection, drain treatment and filter replacement.' },
          { title: 'Pre-summer AC checkup', description: 'Check the system before the heat: amperage, pressures, drain line and thermostat calibration.' },
          { title: 'Commercial RTU quarterly PM', description: 'Quarterly preventive maintenance on rooftop units: filters, belts, coils and economizer check.' },
        ],
  installation: ({ tonnage }) => [
    { title: `New ${tonnage === 'other' ? '3' : tonnage}-ton heat pump install`, description: 'Remove the old system and install a new heat pump and matched air handler. Pull permit, pressure test, evacuate and start up.' },
    { title: 'Replace R-22 condenser and coil', description: 'Old R-22 system is leaking. Replace with an R-410A condenser, matching coil and new line set.' },
    { title: 'Ductless mini-split install — bonus room', description: 'Install a 12k BTU ductless mini-split in the bonus room over the garage.' },
    { title: 'Smart thermostat installation', description: 'Install and configure a Wi-Fi thermostat; add a C-wire if needed and walk the customer through the app.' },
    { title: 'Crawlspace dehumidifier install', description: 'Install a 70-pint crawlspace dehumidifier with a condensate pump; humidity readings at 78%.' },
    { title: 'UV light and media filter install', description: 'Install a UV-C coil light and a 4" media filter cabinet for indoor air quality.' },
  ],
  inspection: () => [
    { title: 'Pre-purchase HVAC inspection', description: 'Buyer inspection before closing: system age, condition, refrigerant type and estimated remaining life.' },
    { title: 'Real estate inspection follow-up', description: 'Home inspector flagged the HVAC system. Evaluate and provide a written report for the buyer.' },
    { title: 'Annual commercial inspection', description: 'Annual inspection of all units for the property manager, with a written condition report.' },
    { title: 'Storm damage inspection', description: 'Check the outdoor unit after the storm for flood and debris damage; report for the insurance claim.' },
    { title: 'Second opinion — compressor diagnosis', description: 'Another company said the compressor is bad. Verify the diagnosis before the customer replaces the system.' },
  ],
  ductwork: () => [
    { title: 'Duct sealing in attic', description: 'Seal leaking supply trunk and boots in the attic with mastic; measured duct leakage is high.' },
    { title: 'Replace crushed flex duct', description: 'Flex duct to the master bedroom is crushed in the attic. Replace the run and hang it properly.' },
    { title: 'Add return air to master bedroom', description: 'Master bedroom is stuffy with the door closed. Add a jumper duct or dedicated return.' },
    { title: 'Insulate ductwork in crawlspace', description: 'Sweating ducts in the crawlspace. Re-wrap with R-8 insulation and seal the seams.' },
    { title: 'Balance airflow to upstairs rooms', description: 'Uneven temperatures between rooms. Measure airflow, adjust dampers and check register sizing.' },
    { title: 'Duct cleaning and sanitizing', description: 'Clean the supply and return ducts and sanitize the system; customer reports dust and allergies.' },
  ],
};

const WORK_ORDER_NOTES = [
  'Replaced 45/5 µF dual run capacitor. System cooling with a 19°F split.',
  'Cleared clogged condensate line with nitrogen; added float switch.',
  'Found leak at the Schrader valve; repaired and recharged to spec.',
  'Customer approved the quote for a new contactor.',
  'Parts ordered — return visit needed.',
  'Coil is original (2009). Recommended replacement quote.',
  'Filter was very dirty; showed the homeowner how to change it.',
  'Recommended a maintenance plan; customer interested in Advanced.',
] as const;

const SPECIAL_INSTRUCTIONS = [
  'Call 30 minutes before arrival',
  'Gate code 4512',
  'Please wear shoe covers inside',
  'Dog in the backyard — use the side gate',
  'Customer works from home; quiet please on calls',
  'Park on the street',
  'Ask for the office manager at the front desk',
] as const;

const INSPECTION_ITEMS = [
  'filter_replaced',
  'coil_cleaned',
  'capacitor_tested',
  'drain_line_flushed',
  'refrigerant_charge_checked',
  'contactor_inspected',
  'electrical_connections_tightened',
  'thermostat_calibrated',
  'blower_wheel_cleaned',
  'condensate_pan_treated',
  'duct_leakage_checked',
] as const;

const TASKS: Record<WorkOrderServiceType, readonly string[]> = {
  repair: ['Diagnose system', 'Check refrigerant pressures', 'Replace dual run capacitor', 'Replace contactor', 'Flush condensate drain', 'Test safety switches', 'Verify temperature split'],
  maintenance: ['Replace air filter', 'Clean condenser coil', 'Test capacitor', 'Flush condensate drain', 'Tighten electrical connections', 'Check refrigerant charge', 'Calibrate thermostat'],
  installation: ['Recover refrigerant from old system', 'Remove old equipment', 'Set new condenser pad', 'Install air handler', 'Braze and pressure test line set', 'Evacuate to 500 microns', 'Start-up and commissioning', 'Haul away old equipment'],
  inspection: ['Visual inspection', 'Measure static pressure', 'Check temperature split', 'Record nameplate data', 'Write condition report'],
  ductwork: ['Inspect attic ductwork', 'Seal supply plenum', 'Replace flex duct run', 'Seal boots and registers', 'Measure airflow', 'Balance dampers'],
};

const ESTIMATE_DESCRIPTIONS: Record<EstimateServiceType, readonly string[]> = {
  'ac-installation': [
    'Our AC is 17 years old and still on R-22. Looking for a quote on a new heat pump system.',
    'Building a screened porch addition, need a quote for a mini-split.',
    'Want a price on replacing both units (upstairs and downstairs).',
  ],
  'ac-repair': [
    'Upstairs unit blowing warm air since yesterday.',
    'AC running constantly and the house is 82 degrees.',
    'Water dripping from the ceiling near the attic unit.',
    'Outside unit is making a loud humming noise and the fan is not spinning.',
  ],
  'heating-installation': [
    'Need a quote to replace our old gas furnace.',
    'Interested in a dual-fuel system, please call.',
  ],
  'heating-repair': [
    'Heat pump blowing cold air this morning.',
    'Heat comes on but smells like burning dust for a long time.',
    'No heat at all and the thermostat shows "aux heat".',
  ],
  maintenance: [
    'Would like to sign up for a maintenance plan and get a tune-up.',
    'Annual checkup for two systems please.',
    'Just bought the house, want the AC checked before summer.',
  ],
  ductwork: [
    'Back bedroom never cools down; think the duct is disconnected.',
    'Want a quote for duct cleaning, lots of dust.',
    'Ducts in the crawlspace are sweating and dripping.',
  ],
  other: [
    'Humidity is high in the house even with the AC running. Dehumidifier quote?',
    'Can you install a smart thermostat?',
    'Question about air purifiers for allergies.',
  ],
};

type ChatExchange = { user: string; ai: string; intent: ChatIntent };
type ChatScript = {
  exchanges: readonly ChatExchange[];
  lead?: { urgency: ChatUrgency; serviceType: WorkOrderServiceType; notes: string };
};

const CHAT_SCRIPTS: Weighted<ChatScript> = [
  [
    {
      exchanges: [
        { user: "My AC isn't cooling and it's 84 degrees inside", ai: "I'm sorry, that sounds miserable. Is the outdoor unit running, and is the air from the vents warm or just not cold enough? If anyone at home is at risk in the heat, please call our 24/7 emergency line.", intent: 'repair_needed' },
        { user: 'The fan outside is not spinning, it just hums', ai: 'A humming outdoor unit with a stopped fan often points to a failed capacitor or fan motor. Please switch the system off at the thermostat so the compressor is not damaged. I can book a technician for you.', intent: 'repair_needed' },
        { user: 'Yes please, as soon as possible', ai: "I've created a service request marked high priority. Our dispatcher will call you to confirm a time, usually within the hour during business hours.", intent: 'schedule_service' },
      ],
      lead: { urgency: 'high', serviceType: 'repair', notes: 'Condenser fan not spinning, unit humming. Customer switched the system off.' },
    },
    30,
  ],
  [
    {
      exchanges: [
        { user: 'Water is leaking from my air handler in the attic!', ai: 'Please turn the system off and place a bucket or towels under the leak. This is usually a clogged condensate drain. Is water coming through the ceiling?', intent: 'emergency' },
        { user: 'yes there is a stain on the ceiling', ai: "I'm flagging this as an emergency and sending your details to our on-call technician. You'll get a call shortly.", intent: 'emergency' },
      ],
      lead: { urgency: 'high', serviceType: 'repair', notes: 'Condensate overflow, ceiling stain. Emergency.' },
    },
    10,
  ],
  [
    {
      exchanges: [
        { user: 'How much is a tune-up?', ai: 'Our service call starts at $89. A tune-up is included in every maintenance plan: Essential $150/year (1 visit), Advanced $250/year (2 visits) and Premium $350/year (2 visits, priority emergency service).', intent: 'pricing_inquiry' },
        { user: "What's the difference between Advanced and Premium?", ai: 'Both include two visits a year. Premium adds a 20% repair discount (15% on Advanced), 6-12 hour response, comprehensive coverage and 24/7 support.', intent: 'pricing_inquiry' },
        { user: 'Can I book a fall tune-up?', ai: "Of course! I've started a maintenance request. Which days work best for you?", intent: 'maintenance_inquiry' },
      ],
      lead: { urgency: 'low', serviceType: 'maintenance', notes: 'Interested in the Advanced plan; wants a fall tune-up.' },
    },
    18,
  ],
  [
    {
      exchanges: [
        { user: 'Are you open on Saturday?', ai: 'Yes: Monday to Friday 8 AM to 6 PM and Saturday 9 AM to 4 PM. Our emergency line is open 24/7.', intent: 'business_hours' },
      ],
    },
    12,
  ],
  [
    {
      exchanges: [
        { user: 'Do you give free estimates on new systems?', ai: 'Yes, estimates for installations and major repairs are free. A comfort advisor will measure the home and go over options and financing.', intent: 'pricing_inquiry' },
        { user: 'Our unit is 18 years old and uses R-22. I want a quote for a heat pump', ai: 'Good timing: R-22 is no longer produced, so repairs get expensive. I can schedule the free in-home estimate for you.', intent: 'schedule_service' },
      ],
      lead: { urgency: 'medium', serviceType: 'installation', notes: 'R-22 system, 18 years old. Wants heat pump replacement quote.' },
    },
    14,
  ],
  [
    {
      exchanges: [
        { user: 'My heat pump is blowing cold air', ai: "In heat mode a heat pump's air can feel cooler than a furnace, but it should be warm at the register. Is the outdoor unit covered in frost or ice?", intent: 'repair_needed' },
        { user: 'A little frost, it says aux heat on the thermostat', ai: 'That may be a defrost problem. I can have a technician check the defrost board and sensor. Would tomorrow morning work?', intent: 'schedule_service' },
      ],
      lead: { urgency: 'medium', serviceType: 'repair', notes: 'Heat pump frosting, running on aux heat.' },
    },
    12,
  ],
  [
    {
      exchanges: [
        { user: 'Do you service Daufuskie Island?', ai: 'We serve Bluffton, Hilton Head Island, Okatie, Beaufort, Port Royal, Hardeeville and Ridgeland. For Daufuskie Island please call the office so we can arrange the ferry schedule.', intent: 'general_inquiry' },
      ],
    },
    8,
  ],
  [
    {
      exchanges: [
        { user: 'Can someone look at my ducts? One bedroom is always hot', ai: 'A single hot room is often a disconnected or crushed duct in the attic, or a missing return. A duct inspection would find it. Want me to set that up?', intent: 'schedule_service' },
        { user: 'sure, afternoons are best', ai: "Noted — afternoon preferred. I've created the request and the office will confirm the day.", intent: 'schedule_service' },
      ],
      lead: { urgency: 'low', serviceType: 'ductwork', notes: 'Hot back bedroom; prefers afternoons.' },
    },
    8,
  ],
  [
    {
      exchanges: [
        { user: 'hello?', ai: "Sorry, I'm having trouble connecting right now. Please try again in a moment or call our office.", intent: 'error' },
      ],
    },
    3,
  ],
];

const CONVERSATION_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

// The generator ------------------------------------------------------------------------------------

export async function seedDemoData(db: Database, options: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const customerCount = Math.max(0, Math.floor(options.customers ?? 60));
  const workOrderCount = customerCount === 0 ? 0 : Math.max(0, Math.floor(options.workOrders ?? 240));
  const now = options.now ?? new Date();
  const nowMs = now.getTime();
  const rng = new Rng(options.random ?? mulberry32(DEFAULT_SEED));
  const calendar = new BusinessCalendar(options.timeZone ?? 'America/New_York');
  const today = calendar.ymd(now);
  const todayStart = calendar.instant(today, 0);

  const counts = await db.transaction(async (tx) => {
    // Technicians: reuse existing ones, create the demo crew only into an empty table.
    const existing = await tx.select({ id: technicians.id, active: technicians.active }).from(technicians);
    let technicianIds: string[];
    let techniciansCreated = 0;
    if (existing.length === 0) {
      const crew = [
        { id: randomUUID(), name: 'Mike Johnson', color: '#2563eb', active: true },
        { id: randomUUID(), name: 'Sarah Williams', color: '#db2777', active: true },
        { id: randomUUID(), name: 'Carlos Rivera', color: '#16a34a', active: true },
      ];
      await tx.insert(technicians).values(crew);
      technicianIds = crew.map((technician) => technician.id);
      techniciansCreated = crew.length;
    } else {
      const active = existing.filter((technician) => technician.active);
      technicianIds = (active.length > 0 ? active : existing).map((technician) => technician.id);
    }

    const people = new PeopleFactory(rng);
    const customerRows = buildCustomers(rng, people, customerCount, nowMs, calendar);
    // Coordinates (and a few shared addresses) from a stream of their own: the rest stays as it was.
    assignDemoLocations(customerRows, nowMs, mulberry32(DEFAULT_SEED ^ 0x6e0c0de));
    const equipmentRows = buildEquipment(rng, customerRows, nowMs);
    const workOrderBuild = buildWorkOrders(rng, {
      count: workOrderCount,
      customers: customerRows,
      equipment: equipmentRows,
      technicianIds,
      calendar,
      today,
      nowMs,
    });
    const estimateRows = buildEstimateRequests(rng, people, {
      count: customerCount === 0 ? 0 : Math.min(MAX_ESTIMATE_REQUESTS, Math.max(20, Math.round(customerCount / 3))),
      customers: customerRows,
      workOrders: workOrderBuild.workOrders,
      calendar,
      today,
      nowMs,
    });
    const chat = buildChat(rng, {
      count: customerCount === 0 ? 0 : Math.min(MAX_AI_CONVERSATIONS, Math.max(15, Math.round(customerCount / 5))),
      customers: customerRows,
      workOrders: workOrderBuild.workOrders,
      todayStart,
      nowMs,
    });

    // Work order numbers come from the database sequence in insert order: oldest first.
    workOrderBuild.workOrders.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

    // PostgreSQL's pool cancels statements after 30 s; building an index on a busy machine may not fit.
    await tx.execute(sql`set local statement_timeout = 0`);
    // Into a fresh database: rows first, then the secondary indexes and foreign keys, each built or
    // checked in one pass (as pg_restore does). Into one with data: rows only, indexes kept.
    const fresh = await bulkTablesEmpty(tx);
    const deferredIndexes = fresh ? await dropSecondaryIndexes(tx) : [];
    const deferredKeys = fresh ? await dropForeignKeys(tx) : [];
    await insertRows(tx, customers, customerRows, 1000);
    await insertRows(tx, equipment, equipmentRows, 1000);
    await insertRows(tx, estimateRequests, estimateRows, 1000);
    await insertRows(tx, workOrders, workOrderBuild.workOrders, 1000);
    await insertRows(tx, inspectionReports, workOrderBuild.inspections, 1000);
    await insertRows(tx, workOrderTasks, workOrderBuild.tasks, 1000);
    await insertRows(tx, aiConversations, chat.conversations, 1000);
    await insertRows(tx, aiLeads, chat.leads, 1000);
    // Maintenance plans (issue 22): a few homeowners are members; their visits are generated by the
    // server's hourly run (also at start), as for any agreement.
    const agreementBuild = buildAgreements(new Rng(mulberry32(DEFAULT_SEED ^ 0x5ea5045)), customerRows, equipmentRows, today, now);
    await insertRows(tx, maintenanceAgreements, agreementBuild.agreements, 500);
    await insertRows(tx, maintenanceAgreementTerms, agreementBuild.terms, 500);
    await insertRows(tx, maintenanceAgreementEquipment, agreementBuild.equipment, 500);
    for (const index of deferredIndexes) await tx.execute(sql.raw(index.definition));
    for (const key of deferredKeys) {
      await tx.execute(sql`alter table ${sql.identifier(key.table)} add constraint ${sql.identifier(key.name)} ${sql.raw(key.definition)}`);
    }

    // A few notifications for the newest chat leads, with the numbers the database assigned.
    const notified = [...chat.leads].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, 8);
    const linkedOrderIds = notified.map((lead) => lead.workOrderId).filter((id): id is string => Boolean(id));
    const numbers = new Map<string, string>();
    if (linkedOrderIds.length > 0) {
      const found = await tx
        .select({ id: workOrders.id, number: workOrders.workOrderNumber })
        .from(workOrders)
        .where(inArray(workOrders.id, linkedOrderIds));
      for (const row of found) numbers.set(row.id, row.number);
    }
    const customerNames = new Map(customerRows.map((customer) => [customer.id, customer.name]));
    const notifications = notified.map((lead, index) => {
      const name = (lead.customerId && customerNames.get(lead.customerId)) || 'Website visitor';
      const service = lead.serviceType ?? 'service';
      return {
        type: 'new_ai_lead',
        title: `New ${lead.urgency === 'high' ? 'urgent ' : ''}chat lead: ${name}`,
        message: `${name} asked for ${service} through the chat assistant (lead score ${lead.leadScore}/10, ${lead.urgency} urgency).`,
        data: {
          customer_id: lead.customerId ?? null,
          work_order_id: lead.workOrderId ?? null,
          work_order_number: lead.workOrderId ? (numbers.get(lead.workOrderId) ?? null) : null,
          urgency: lead.urgency,
          service_type: lead.serviceType ?? null,
          source: 'ai_chat',
        },
        readAt: index >= 3 ? new Date(Math.min(nowMs, lead.createdAt.getTime() + rng.int(20, 240) * MINUTE)) : null,
        createdAt: lead.createdAt,
      };
    });
    await insertRows(tx, adminNotifications, notifications, 500);
    // The price book and tax rates (issue 20): into empty tables only, about a hundred rows.
    await seedPriceBook(tx);
    // Demo data sends nothing: the work orders just inserted queued themselves for the messaging
    // planner (a trigger on work_orders, decision 021-a); their entries leave the queue before the
    // commit (all of it in a fresh database; only the seed's when adding to one with --force).
    if (fresh) {
      await tx.execute(sql`delete from message_triggers`);
    } else {
      const seededIds = workOrderBuild.workOrders.map((workOrder) => workOrder.id);
      for (let start = 0; start < seededIds.length; start += 1000) {
        const chunk = seededIds.slice(start, start + 1000).map((id) => sql`${id}::uuid`);
        await tx.execute(sql`delete from message_triggers where work_order_id in (${sql.join(chunk, sql`, `)})`);
      }
    }

    return {
      customers: customerRows.length,
      workOrders: workOrderBuild.workOrders.length,
      technicians: techniciansCreated,
      estimateRequests: estimateRows.length,
      aiConversations: chat.conversations.length,
      aiLeads: chat.leads.length,
      agreements: agreementBuild.agreements.length,
    };
  });
  // Fresh planner statistics for the new rows (the embedded database has no autovacuum).
  await db.execute(sql`analyze`);
  return counts;
}

/** The tables the seed loads in bulk. */
const bulkTableNames = [customers, customerSearch, equipment, estimateRequests, workOrders, workOrderSearch, inspectionReports, workOrderTasks, aiConversations, aiLeads].map((table) =>
  getTableName(table),
);
const bulkTableList = sql.join(bulkTableNames.map((name) => sql`${name}`), sql`, `);

/** True when every bulk table is empty: a fresh database, where indexes and foreign keys may be deferred. */
async function bulkTablesEmpty(tx: Tx): Promise<boolean> {
  const result = await tx.execute<{ empty: boolean }>(
    sql`select ${sql.join(bulkTableNames.map((name) => sql`not exists (select 1 from ${sql.identifier(name)})`), sql` and `)} as empty`,
  );
  return result.rows[0]?.empty === true;
}

/**
 * Drops the bulk tables' secondary indexes (not primary keys, unique indexes or indexes behind a
 * constraint) and returns their definitions, to be built again once the rows are in: one sorted
 * build per index instead of maintaining it row by row, above all the trigram (GIN) indexes, which
 * made inserting 100,000 work orders take minutes. Only on empty tables, inside the seed's
 * transaction: a failed seed rolls the drops back, and other sessions wait for the commit rather
 * than see a table without its indexes.
 */
async function dropSecondaryIndexes(tx: Tx): Promise<{ name: string; definition: string }[]> {
  const found = await tx.execute<{ name: string; definition: string }>(sql`
    select index.relname as name, pg_get_indexdef(index.oid) as definition
    from pg_index
    join pg_class as index on index.oid = pg_index.indexrelid
    join pg_class as tab on tab.oid = pg_index.indrelid
    where tab.relnamespace = current_schema()::regnamespace
      and tab.relname in (${bulkTableList})
      and not pg_index.indisprimary
      and not pg_index.indisunique
      and not exists (select 1 from pg_constraint where pg_constraint.conindid = pg_index.indexrelid)
    order by tab.relname, index.relname`);
  for (const index of found.rows) await tx.execute(sql`drop index ${sql.identifier(index.name)}`);
  return found.rows;
}

/** The same for the bulk tables' foreign keys: checked once per constraint when added back, not once per row. */
async function dropForeignKeys(tx: Tx): Promise<{ table: string; name: string; definition: string }[]> {
  const found = await tx.execute<{ table: string; name: string; definition: string }>(sql`
    select tab.relname as table, pg_constraint.conname as name, pg_get_constraintdef(pg_constraint.oid) as definition
    from pg_constraint
    join pg_class as tab on tab.oid = pg_constraint.conrelid
    where tab.relnamespace = current_schema()::regnamespace
      and pg_constraint.contype = 'f'
      and tab.relname in (${bulkTableList})
    order by tab.relname, pg_constraint.conname`);
  for (const key of found.rows) await tx.execute(sql`alter table ${sql.identifier(key.table)} drop constraint ${sql.identifier(key.name)}`);
  return found.rows;
}

/**
 * Multi-row insert that sends each batch as one JSON parameter (jsonb_populate_recordset): the
 * embedded database binds one value instead of thousands, about twice as fast as a VALUES list.
 * Values go as JSON (dates as ISO strings, arrays and objects as JSON), which every column type
 * used here accepts. A column left out of some rows but not others would get NULL instead of its
 * default there, so that is refused for NOT NULL columns with a default.
 */
async function insertRows<TTable extends PgTable>(tx: Tx, table: TTable, rows: readonly TTable['$inferInsert'][], batchSize = 1000): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const records = rows as readonly Record<string, unknown>[];
  const keys = Object.keys(columns).filter((key) => records.some((row) => row[key] !== undefined));
  for (const key of keys) {
    const column = columns[key]!;
    if (column.notNull && column.hasDefault && records.some((row) => row[key] === undefined)) {
      throw new Error(`Demo data for ${getTableName(table)}.${column.name}: set it on every row or on none`);
    }
  }
  const names = keys.map((key) => columns[key]!.name);
  const columnList = sql.join(names.map((name) => sql.identifier(name)), sql`, `);
  for (let start = 0; start < records.length; start += batchSize) {
    const batch = records.slice(start, start + batchSize).map((row) => {
      const record: Record<string, unknown> = {};
      keys.forEach((key, index) => {
        record[names[index]!] = row[key] ?? null;
      });
      return record;
    });
    await tx.execute(
      sql`insert into ${table} (${columnList}) select ${columnList} from jsonb_populate_recordset(null::${table}, ${JSON.stringify(batch)}::jsonb)`,
    );
  }
}

// People and addresses -----------------------------------------------------------------------------

class PeopleFactory {
  private readonly emails = new Set<string>();
  constructor(private readonly rng: Rng) {}

  person(): { first: string; last: string; name: string } {
    const first = this.rng.pick(FIRST_NAMES);
    const last = this.rng.pick(LAST_NAMES);
    return { first, last, name: `${first} ${last}` };
  }

  business(): string {
    return `${this.rng.pick(BUSINESS_PREFIXES)} ${this.rng.pick(BUSINESS_SUFFIXES)}`;
  }

  phone(): string {
    if (this.rng.chance(0.25)) return `(843) 555-01${pad2(this.rng.int(0, 99))}`;
    let exchange = this.rng.int(20, 99);
    if (exchange === 55) exchange = 56;
    return `(843) 5${pad2(exchange)}-${this.rng.digits(4)}`;
  }

  email(localParts: readonly string[]): string {
    const domain = this.rng.weighted<string>([['example.com', 6], ['example.net', 2], ['example.org', 2]]);
    const base = localParts
      .map((part) => part.toLowerCase().replace(/[^a-z0-9]+/g, ''))
      .filter(Boolean)
      .join(this.rng.pick(['.', '', '_']));
    let candidate = `${base}@${domain}`;
    for (let attempt = 0; this.emails.has(candidate); attempt += 1) {
      candidate = `${base}${attempt < 3 ? this.rng.int(1, 99) : this.rng.int(100, 99999)}@${domain}`;
    }
    this.emails.add(candidate);
    return candidate;
  }

  address(commercial: boolean): { street: string; city: string; zip: string } {
    const town = this.rng.weighted(TOWNS);
    const useNeighborhood = !commercial && this.rng.chance(0.45);
    const streetName = useNeighborhood ? this.rng.pick(NEIGHBORHOOD_STREETS) : this.rng.pick(town.streets);
    const number = useNeighborhood ? this.rng.int(2, 180) : this.rng.int(10, 2999);
    let street = `${number} ${streetName}`;
    if (commercial && this.rng.chance(0.5)) street += `, Suite ${this.rng.pick(['100', '101', '104', '110', '200', 'B', 'C', 'D'])}`;
    return { street, city: town.city, zip: town.zip };
  }
}

function buildCustomers(rng: Rng, people: PeopleFactory, count: number, nowMs: number, calendar: BusinessCalendar): CustomerRow[] {
  const rows: CustomerRow[] = [];
  for (let i = 0; i < count; i += 1) {
    const commercial = rng.chance(0.2);
    const person = people.person();
    const name = commercial ? people.business() : person.name;
    const address = people.address(commercial);
    // Most customers are long-standing; about one in ten signed up within the last two months.
    const createdAtMs = rng.chance(0.9)
      ? nowMs - rng.int(60, 4 * 365) * DAY - rng.int(0, 10 * 60) * MINUTE
      : nowMs - rng.int(1, 58) * DAY - rng.int(0, 10 * 60) * MINUTE;
    const row: CustomerRow = {
      id: randomUUID(),
      name,
      phone: people.phone(),
      email: rng.chance(0.7)
        ? commercial
          ? people.email([rng.pick(['office', 'info', 'frontdesk', 'facilities', 'manager']), name.split(' ')[0] ?? 'office'])
          : people.email([person.first, person.last])
        : null,
      address: address.street,
      city: address.city,
      state: 'SC',
      zip: address.zip,
      type: commercial ? 'commercial' : 'residential',
      notes: rng.chance(commercial ? 0.45 : 0.25) ? rng.pick(commercial ? COMMERCIAL_NOTES : CUSTOMER_NOTES) : null,
      hasIndoorUnit: rng.chance(0.93),
      hasOutdoorUnit: rng.chance(0.95),
      createdAt: new Date(createdAtMs),
      updatedAt: new Date(Math.min(nowMs, createdAtMs + (rng.chance(0.3) ? rng.int(1, 300) * DAY : 0))),
    };
    if (rng.chance(0.85)) {
      const brand = rng.weighted(BRANDS);
      const tonnage = rng.weighted(commercial ? COMMERCIAL_TONNAGE : RESIDENTIAL_TONNAGE);
      const installMs = nowMs - rng.float(0.2, 18) * 365 * DAY;
      const installDate = calendar.ymd(installMs);
      const installYear = Number(installDate.slice(0, 4));
      row.unitBrand = brand.brand;
      row.unitModel = brand.model(TON_CODE[tonnage], rng);
      row.unitSerial = brand.serial(installYear, rng);
      row.installDate = installDate;
      row.tonnage = tonnage;
      row.refrigerantType = refrigerantFor(rng, installYear);
    }
    rows.push(row);
  }
  return rows;
}

/** R-22 for units built before the 2010 phase-out, R-410A after, some R-32/R-454B on the newest. */
function refrigerantFor(rng: Rng, installYear: number): Refrigerant {
  if (installYear < 2010) return rng.weighted<Refrigerant>([['R-22', 85], ['R-410A', 13], ['R-407C', 2]]);
  if (installYear >= 2024) return rng.weighted<Refrigerant>([['R-410A', 45], ['R-32', 30], ['other', 25]]);
  return rng.weighted<Refrigerant>([['R-410A', 96], ['R-32', 2], ['R-134a', 1], ['R-407C', 1]]);
}

function buildEquipment(rng: Rng, customerRows: readonly CustomerRow[], nowMs: number): EquipmentRow[] {
  const rows: EquipmentRow[] = [];
  for (const customer of customerRows) {
    if (!rng.chance(customer.type === 'commercial' ? 0.4 : 0.22)) continue;
    const count = rng.weighted([[1, 55], [2, 35], [3, 10]]);
    for (let n = 0; n < count; n += 1) {
      const kind = rng.weighted(EQUIPMENT_TYPES);
      const brand = customer.unitBrand && rng.chance(0.7) ? BRANDS.find(([b]) => b.brand === customer.unitBrand)![0] : rng.weighted(BRANDS);
      const tonnage = (customer.tonnage ?? '3') as Tonnage;
      const ageYears = rng.float(0.3, 16);
      const installMs = nowMs - ageYears * 365 * DAY;
      const installYear = new Date(installMs).getUTCFullYear();
      rows.push({
        id: randomUUID(),
        customerId: customer.id,
        equipmentType: kind.type,
        location: rng.pick(kind.locations),
        brand: brand.brand,
        model: (kind.model ?? brand.model)(TON_CODE[tonnage], rng),
        serialNumber: brand.serial(installYear, rng),
        warrantyStatus: ageYears < 5 ? rng.weighted([['Active', 75], ['Extended', 25]]) : ageYears < 10 ? rng.weighted([['Extended', 35], ['Expired', 65]]) : 'Expired',
        installDate: new Date(installMs).toISOString().slice(0, 10),
        createdAt: customer.createdAt,
        updatedAt: customer.createdAt,
      });
    }
  }
  return rows;
}

// Work orders ----------------------------------------------------------------------------------------

const SERVICE_TYPE_WEIGHTS: Weighted<WorkOrderServiceType> = [
  ['repair', 40],
  ['maintenance', 30],
  ['installation', 9],
  ['inspection', 8],
  ['ductwork', 13],
];

const DURATIONS: Record<WorkOrderServiceType, Weighted<number>> = {
  repair: [[1, 25], [2, 50], [3, 20], [4, 5]],
  maintenance: [[1, 60], [2, 40]],
  installation: [[4, 30], [8, 70]],
  inspection: [[1, 50], [2, 50]],
  ductwork: [[2, 30], [3, 30], [4, 30], [8, 10]],
};

/** Start times the schedule modal offers (spec 000 section 5). */
const START_HOURS = [8, 9, 10, 11, 13, 14, 15, 16] as const;


/** At most this many demo agreements: enough to fill Visits Due, few enough that the big bench seed's start stays quick. */
export const MAX_DEMO_AGREEMENTS = 40;

/**
 * Demo maintenance agreements: about one homeowner in seven, started in the past year, mostly yearly
 * and auto-renewing, covering the customer's equipment. Recorded today (as a company moving its
 * plans into the product would): monthly billing leaves the months already begun to the office.
 */
function buildAgreements(rng: Rng, customerRows: readonly CustomerRow[], equipmentRows: readonly EquipmentRow[], today: string, now: Date) {
  const homeowners = customerRows.filter((customer) => customer.type === 'residential');
  const members = rng.sample(homeowners, Math.min(MAX_DEMO_AGREEMENTS, Math.round(homeowners.length / 7)));
  const equipmentOf = new Map<string, string[]>();
  for (const row of equipmentRows) equipmentOf.set(row.customerId, [...(equipmentOf.get(row.customerId) ?? []), row.id]);
  const agreements: (typeof maintenanceAgreements.$inferInsert & { id: string })[] = [];
  const terms: (typeof maintenanceAgreementTerms.$inferInsert)[] = [];
  const covered: (typeof maintenanceAgreementEquipment.$inferInsert)[] = [];
  for (const customer of members) {
    const planId = rng.weighted<MaintenancePlanId>([
      [maintenancePlanIds[0], 40],
      [maintenancePlanIds[1], 40],
      [maintenancePlanIds[2], 20],
    ]);
    const startsOn = addDays(today, -rng.int(5, 330));
    const endsOn = addDays(addMonths(startsOn, 12), -1);
    const priceCents = planPriceCents(planId);
    const id = randomUUID();
    agreements.push({
      id,
      customerId: customer.id,
      planId,
      status: 'active',
      startDate: startsOn,
      currentTermStartsOn: startsOn,
      currentTermEndsOn: endsOn,
      priceCents,
      billing: rng.chance(0.3) ? 'monthly' : 'yearly',
      autoRenew: rng.chance(0.85),
      notes: rng.chance(0.3) ? rng.pick(['Gate code 2468', 'Dog in the back yard', 'Call before arriving', 'Two systems: upstairs and downstairs']) : '',
      createdAt: now,
      updatedAt: now,
    });
    terms.push({ agreementId: id, termNumber: 1, planId, startsOn, endsOn, priceCents, createdAt: now });
    for (const equipmentId of equipmentOf.get(customer.id) ?? []) covered.push({ agreementId: id, equipmentId });
  }
  return { agreements, terms, equipment: covered };
}

/** Days from today: weekdays carry most of the work, Saturdays some, Sundays only the odd call. */
function pickServiceDayOffset(rng: Rng, today: string, daysBack: number): number {
  for (;;) {
    const offset = rng.int(-daysBack, WORK_ORDER_DAYS_AHEAD);
    const day = weekday(addDays(today, offset));
    if (day === 0 && rng.chance(0.85)) continue;
    if (day === 6 && rng.chance(0.5)) continue;
    return offset;
  }
}

function statusFor(rng: Rng, dayOffset: number): WorkOrderStatus {
  if (dayOffset < 0) return rng.weighted<WorkOrderStatus>([['completed', 85], ['cancelled', 10], ['pending', 5]]);
  if (dayOffset === 0) return rng.weighted<WorkOrderStatus>([['in-progress', 35], ['scheduled', 30], ['completed', 25], ['pending', 7], ['cancelled', 3]]);
  return rng.weighted<WorkOrderStatus>([['scheduled', 62], ['pending', 33], ['cancelled', 5]]);
}

function priorityFor(rng: Rng, serviceType: WorkOrderServiceType): WorkOrderPriority {
  if (serviceType === 'repair') return rng.weighted<WorkOrderPriority>([['normal', 62], ['high', 24], ['emergency', 8], ['low', 6]]);
  if (serviceType === 'maintenance') return rng.weighted<WorkOrderPriority>([['normal', 78], ['low', 20], ['high', 2]]);
  return rng.weighted<WorkOrderPriority>([['normal', 80], ['high', 12], ['low', 8]]);
}

type WorkOrderBuildContext = {
  count: number;
  customers: readonly CustomerRow[];
  equipment: readonly EquipmentRow[];
  technicianIds: readonly string[];
  calendar: BusinessCalendar;
  today: string;
  nowMs: number;
};

function buildWorkOrders(rng: Rng, ctx: WorkOrderBuildContext) {
  const { calendar, today, nowMs, technicianIds } = ctx;
  const workOrderRows: WorkOrderRow[] = [];
  const inspections: (typeof inspectionReports.$inferInsert)[] = [];
  const tasks: (typeof workOrderTasks.$inferInsert)[] = [];

  const equipmentByCustomer = new Map<string, EquipmentRow[]>();
  for (const item of ctx.equipment) {
    const list = equipmentByCustomer.get(item.customerId) ?? [];
    list.push(item);
    equipmentByCustomer.set(item.customerId, list);
  }
  const commercial = ctx.customers.filter((customer) => customer.type === 'commercial');
  const longStanding = ctx.customers.filter((customer) => customer.createdAt.getTime() < nowMs - 60 * DAY);
  const fallbackPool = longStanding.length > 0 ? longStanding : ctx.customers;
  /** Hours taken per technician and day (bit h-8), to keep the calendar free of double bookings. */
  const busy = new Map<string, number>();
  const daysBack = workOrderDaysBack(ctx.count);

  // The first orders cover every status on a date that suits it.
  const forced: { offset: number; status: WorkOrderStatus; technician?: number }[] = [
    { offset: -3, status: 'completed' },
    { offset: 0, status: 'in-progress' },
    { offset: 2, status: 'scheduled' },
    { offset: 4, status: 'pending' },
    { offset: -6, status: 'cancelled' },
  ];
  for (const status of workOrderStatuses) {
    if (!forced.some((item) => item.status === status)) forced.push({ offset: 1, status });
  }
  // Issue 19: each technician's day in the technician app: 3 to 5 visits scheduled today, each
  // with its checklist (when the seed is large enough to hold them).
  for (const techIndex of technicianIds.keys()) {
    for (let visit = 0; visit < 3 + (techIndex % 3); visit += 1) forced.push({ offset: 0, status: 'scheduled', technician: techIndex });
  }

  for (let i = 0; i < ctx.count; i += 1) {
    // Pick a day, a status that suits it and a kind of job; a job that needs a time slot looks for
    // a technician who is free then, and moves to another day (up to three tries) when the crew is
    // booked solid. Past the tries someone is double-booked (only at very large sizes).
    let offset = 0;
    let status: WorkOrderStatus = 'pending';
    let serviceType: WorkOrderServiceType = 'repair';
    let priority: WorkOrderPriority = 'normal';
    let startHour: number | undefined;
    let duration = 2;
    let technicianId: string | null = null;
    for (let attempt = 0; ; attempt += 1) {
      offset = forced[i]?.offset ?? pickServiceDayOffset(rng, today, daysBack);
      status = forced[i]?.status ?? statusFor(rng, offset);
      serviceType = rng.weighted(SERVICE_TYPE_WEIGHTS);
      // A technician's day holds several visits: short jobs (no day-long installation).
      if (forced[i]?.technician !== undefined && (serviceType === 'installation' || serviceType === 'ductwork')) serviceType = 'repair';
      priority = priorityFor(rng, serviceType);
      const hasSchedule =
        status === 'scheduled' || status === 'in-progress'
          ? true
          : status === 'completed'
            ? rng.chance(0.92)
            : status === 'cancelled'
              ? rng.chance(0.5)
              : rng.chance(0.2);
      duration = hasSchedule ? rng.weighted(DURATIONS[serviceType]) : 2;
      if (forced[i]?.technician !== undefined) duration = Math.min(duration, 2);
      startHour = undefined;
      technicianId = null;
      if (!hasSchedule) break;
      const serviceDate = addDays(today, offset);
      const fits = START_HOURS.filter((hour) => hour + duration <= 17);
      const own = forced[i]?.technician;
      for (const techIndex of own === undefined ? rng.sample(technicianIds.map((_, index) => index), technicianIds.length) : [own]) {
        const key = `${techIndex}|${serviceDate}`;
        const taken = busy.get(key) ?? 0;
        const free = fits.filter((hour) => (taken & slotMask(hour, duration)) === 0);
        if (free.length > 0) {
          startHour = rng.pick(free);
          busy.set(key, taken | slotMask(startHour, duration));
          technicianId = technicianIds[techIndex] ?? null;
          break;
        }
      }
      if (startHour !== undefined) break;
      if (forced[i] || attempt >= 2) {
        startHour = rng.pick(fits);
        technicianId = own !== undefined ? (technicianIds[own] ?? null) : technicianIds.length > 0 ? rng.pick(technicianIds) : null;
        break;
      }
    }
    const serviceDate = addDays(today, offset);

    // Lead time between the call and the visit.
    const leadDays =
      priority === 'emergency'
        ? 0
        : serviceType === 'repair'
          ? rng.weighted([[0, 30], [1, 40], [2, 20], [3, 10]])
          : serviceType === 'installation'
            ? rng.int(3, 21)
            : serviceType === 'maintenance'
              ? rng.int(4, 30)
              : rng.int(1, 12);
    // Booked during office hours (emergencies early that morning); orders further out than their
    // usual lead time were booked on one of the last ten days.
    let bookedOffset = offset - leadDays;
    if (bookedOffset > 0) bookedOffset = rng.chance(0.15) ? 0 : -rng.int(1, 10);
    let createdAtMs =
      leadDays === 0 && bookedOffset === offset
        ? momentOn(rng, calendar, addDays(today, bookedOffset), 6, 8, nowMs)
        : momentOn(rng, calendar, addDays(today, bookedOffset), 8, 17, nowMs);

    let customer = rng.chance(0.2) && commercial.length > 0 ? rng.pick(commercial) : rng.pick(ctx.customers);
    for (let attempt = 0; customer.createdAt.getTime() > createdAtMs && attempt < 4; attempt += 1) customer = rng.pick(ctx.customers);
    if (customer.createdAt.getTime() > createdAtMs) customer = rng.pick(fallbackPool);
    if (customer.createdAt.getTime() > createdAtMs) createdAtMs = Math.min(nowMs, customer.createdAt.getTime() + HOUR);

    const template = rng.pick(WORK_ORDER_TEMPLATES[serviceType]({ month: Number(serviceDate.slice(5, 7)), tonnage: customer.tonnage ?? '3' }));

    const timePreference =
      startHour === undefined
        ? rng.weighted([['morning', 45], ['afternoon', 35], ['anytime', 20]] as const)
        : rng.chance(0.2)
          ? 'anytime'
          : startHour < 12
            ? 'morning'
            : 'afternoon';

    const row: WorkOrderRow = {
      id: randomUUID(),
      customerId: customer.id,
      title: template.title,
      description: template.description,
      serviceType,
      serviceDate,
      timePreference,
      priority,
      status,
      technicianId,
      createdAt: new Date(createdAtMs),
    };
    const customerEquipment = equipmentByCustomer.get(customer.id);
    if (customerEquipment && rng.chance(0.5)) row.equipmentId = rng.pick(customerEquipment).id;
    if (rng.chance(0.15)) row.specialInstructions = rng.pick(SPECIAL_INSTRUCTIONS);

    let startedAtMs: number | undefined;
    let completedAtMs: number | undefined;
    if (startHour !== undefined) {
      const scheduledStart = calendar.instant(serviceDate, startHour);
      row.scheduledDate = new Date(scheduledStart);
      row.scheduledStartTime = hhmmss(startHour);
      row.scheduledEndTime = hhmmss(startHour + duration);
      row.estimatedDuration = duration;
    } else if (status !== 'pending' && status !== 'cancelled') {
      row.estimatedDuration = duration;
    }

    const plannedStart = calendar.instant(serviceDate, startHour ?? rng.pick([8, 9, 10, 13, 14]));
    if (status === 'in-progress') {
      startedAtMs = plannedStart + rng.int(-10, 25) * MINUTE;
      if (startedAtMs > nowMs - 5 * MINUTE) startedAtMs = nowMs - rng.int(5, 90) * MINUTE;
      row.startedAt = new Date(startedAtMs);
      row.actualStartTime = row.startedAt;
    } else if (status === 'completed') {
      startedAtMs = plannedStart + rng.int(-10, 25) * MINUTE;
      completedAtMs = startedAtMs + Math.max(30, duration * 60 + rng.int(-25, 40)) * MINUTE;
      if (completedAtMs > nowMs - 5 * MINUTE) {
        const shift = completedAtMs - (nowMs - rng.int(5, 60) * MINUTE);
        startedAtMs -= shift;
        completedAtMs -= shift;
      }
      row.startedAt = new Date(startedAtMs);
      row.actualStartTime = row.startedAt;
      row.completedAt = new Date(completedAtMs);
      row.actualEndTime = row.completedAt;
      if (rng.chance(0.35)) row.notes = rng.pick(WORK_ORDER_NOTES);
    } else if (status === 'cancelled' && rng.chance(0.6)) {
      row.notes = rng.pick(['Customer cancelled — fixed itself after a breaker reset', 'Customer went with another company', 'Cancelled: duplicate request', 'Customer rescheduled, new order created', 'Tenant moved out; owner will call back']);
    } else if (status === 'pending' && rng.chance(0.3)) {
      row.notes = rng.pick(['Waiting on parts', 'Customer to call back with a good day', 'Needs a quote approval first', 'Warranty claim submitted to the manufacturer']);
    }
    if (startedAtMs !== undefined && createdAtMs > startedAtMs) {
      createdAtMs = startedAtMs - rng.int(30, 120) * MINUTE;
      row.createdAt = new Date(createdAtMs);
    }
    const touched = Math.max(createdAtMs, startedAtMs ?? 0, completedAtMs ?? 0);
    row.updatedAt = new Date(
      status === 'cancelled' || status === 'scheduled'
        ? Math.min(nowMs, touched + rng.int(0, 48 * 60) * MINUTE)
        : touched,
    );
    workOrderRows.push(row);

    if (status === 'completed' && completedAtMs !== undefined) {
      const reportChance = { maintenance: 0.6, inspection: 0.8, installation: 0.5, repair: 0.25, ductwork: 0.2 }[serviceType];
      if (rng.chance(reportChance)) {
        const tons = Number(customer.tonnage) || 3;
        const mca = round(tons * 5.6 + rng.float(1, 5), 1);
        inspections.push({
          workOrderId: row.id,
          mca,
          mocp: [15, 20, 25, 30, 35, 40, 45, 50, 60, 70].find((size) => size >= mca * 1.55) ?? 70,
          tempSplit: round(rng.float(16, 22), 1),
          staticPressure: round(rng.float(0.3, 0.9), 2),
          inspectionItems: rng.sample(INSPECTION_ITEMS, rng.int(3, 7)),
          createdAt: new Date(completedAtMs),
        });
      }
    }
    const technicianDay = forced[i]?.technician !== undefined;
    if (technicianDay || (status === 'completed' && rng.chance(0.45)) || (status === 'in-progress' && rng.chance(0.6))) {
      const names = rng.sample(TASKS[serviceType], rng.int(2, 4));
      // A visit still to come starts with its checklist open.
      const doneCount = status === 'completed' ? names.length : status === 'scheduled' ? 0 : rng.int(0, names.length - 1);
      names.forEach((taskName, index) => {
        const done = index < doneCount;
        tasks.push({
          workOrderId: row.id,
          taskName,
          status: done ? 'completed' : 'pending',
          timeSpentMinutes: done ? rng.pick([10, 15, 20, 25, 30, 45, 60, 90]) : null,
          createdAt: new Date((startedAtMs ?? createdAtMs) + index * MINUTE),
        });
      });
    }
  }
  return { workOrders: workOrderRows, inspections, tasks };
}

function slotMask(startHour: number, duration: number): number {
  let mask = 0;
  for (let hour = startHour; hour < startHour + duration; hour += 1) mask |= 1 << (hour - 8);
  return mask;
}

// Estimate requests ------------------------------------------------------------------------------------

const LEAD_SOURCE_WEIGHTS: Weighted<LeadSource> = [
  ['website', 40],
  ['phone', 20],
  ['ai_chat', 14],
  ['angies_list', 9],
  ['home_rely', 7],
  ['walk_in', 4],
  ['manual', 6],
];

const ESTIMATE_SERVICE_WEIGHTS: Weighted<EstimateServiceType> = [
  ['ac-repair', 26],
  ['ac-installation', 16],
  ['maintenance', 18],
  ['heating-repair', 12],
  ['heating-installation', 6],
  ['ductwork', 12],
  ['other', 10],
];

function leadStatusFor(rng: Rng, ageDays: number): LeadStatus {
  if (ageDays < 2) return rng.weighted<LeadStatus>([['pending', 70], ['contacted', 25], ['cancelled', 5]]);
  if (ageDays < 7) return rng.weighted<LeadStatus>([['pending', 30], ['contacted', 35], ['quoted', 25], ['scheduled', 8], ['cancelled', 2]]);
  return rng.weighted<LeadStatus>([['pending', 8], ['contacted', 15], ['quoted', 22], ['scheduled', 20], ['completed', 25], ['cancelled', 10]]);
}

function estimateTypeFor(rng: Rng, serviceType: WorkOrderServiceType): EstimateServiceType {
  switch (serviceType) {
    case 'repair':
      return rng.chance(0.65) ? 'ac-repair' : 'heating-repair';
    case 'installation':
      return rng.chance(0.7) ? 'ac-installation' : 'heating-installation';
    case 'maintenance':
      return 'maintenance';
    case 'ductwork':
      return 'ductwork';
    default:
      return 'other';
  }
}

function buildEstimateRequests(
  rng: Rng,
  people: PeopleFactory,
  ctx: {
    count: number;
    customers: readonly CustomerRow[];
    workOrders: WorkOrderRow[];
    calendar: BusinessCalendar;
    today: string;
    nowMs: number;
  },
): EstimateRow[] {
  const { calendar, nowMs } = ctx;
  const rows: EstimateRow[] = [];
  const forcedAge: Record<LeadStatus, number> = { pending: 0, contacted: 1, quoted: 4, scheduled: 9, completed: 20, cancelled: 12 };
  const longStanding = ctx.customers.filter((customer) => customer.createdAt.getTime() < nowMs - 60 * DAY);
  const forcedCount = Math.max(leadStatuses.length, leadSources.length);

  for (let i = 0; i < ctx.count; i += 1) {
    let status: LeadStatus | undefined;
    let source: LeadSource;
    let createdAtMs: number;
    if (i < forcedCount) {
      status = leadStatuses[i % leadStatuses.length]!;
      source = leadSources[i % leadSources.length]!;
      createdAtMs = momentOn(rng, calendar, addDays(ctx.today, -forcedAge[status]), 7, 21, nowMs);
    } else {
      source = rng.weighted(LEAD_SOURCE_WEIGHTS);
      // Several from today, about a third from the last week, the rest from the weeks before.
      const ageDays = i < forcedCount + 3 ? 0 : rng.chance(0.35) ? rng.int(0, 6) : rng.int(7, 29);
      // Web forms and chat come in at all hours; calls and walk-ins during office hours.
      const [fromHour, toHour] = source === 'phone' || source === 'walk_in' || source === 'manual' ? [8, 17] : [6, 22];
      createdAtMs = momentOn(rng, calendar, addDays(ctx.today, -ageDays), fromHour, toHour, nowMs);
    }
    const ageDays = (nowMs - createdAtMs) / DAY;
    status ??= leadStatusFor(rng, ageDays);
    const serviceType = rng.weighted(ESTIMATE_SERVICE_WEIGHTS);

    const linked = longStanding.length > 0 && rng.chance(0.3) ? rng.pick(longStanding) : undefined;
    const person = people.person();
    const contact = linked
      ? {
          name: linked.name,
          email: linked.email ?? people.email([...linked.name.split(' ')]),
          phone: linked.phone,
          address: `${linked.address}, ${linked.city}, SC ${linked.zip ?? ''}`.trim(),
        }
      : (() => {
          const address = people.address(false);
          return {
            name: person.name,
            email: people.email([person.first, person.last]),
            phone: people.phone(),
            address: `${address.street}, ${address.city}, SC ${address.zip}`,
          };
        })();
    const createdYmd = calendar.ymd(createdAtMs);
    // A lead that is no longer pending was answered when it last changed (the seed's only change).
    const respondedAndUpdated = (updatedMs: number) => ({ updatedAt: new Date(updatedMs), respondedAt: status === 'pending' ? null : new Date(updatedMs) });
    rows.push({
      id: randomUUID(),
      ...contact,
      serviceType,
      description: rng.chance(0.85) ? rng.pick(ESTIMATE_DESCRIPTIONS[serviceType]) : null,
      preferredDate: rng.chance(0.6) ? addDays(createdYmd, rng.int(1, 14)) : null,
      preferredTime: rng.chance(0.7) ? rng.pick(estimateTimePreferences) : null,
      status,
      priority: estimatePriority(serviceType),
      source,
      customerId: linked?.id ?? null,
      createdAt: new Date(createdAtMs),
      ...respondedAndUpdated(status === 'pending' ? createdAtMs : Math.min(nowMs, createdAtMs + rng.int(20, 48 * 60) * MINUTE)),
    });
  }

  // A few leads were converted into work orders: they point at a real order for the same customer.
  const candidates = ctx.workOrders.filter(
    (order) =>
      order.createdAt.getTime() > nowMs - 25 * DAY &&
      order.createdAt.getTime() < nowMs - DAY &&
      order.status !== 'cancelled' &&
      !order.estimateRequestId,
  );
  const convertCount = Math.min(candidates.length, Math.max(2, Math.round(rows.length * 0.06)));
  const customersById = new Map(ctx.customers.map((customer) => [customer.id, customer]));
  const leadIndexes = rng.sample(
    rows.map((_, index) => index).filter((index) => index >= forcedCount),
    convertCount,
  );
  const orders = rng.sample(candidates, convertCount);
  leadIndexes.forEach((leadIndex, n) => {
    const order = orders[n]!;
    const customer = customersById.get(order.customerId)!;
    const lead = rows[leadIndex]!;
    const serviceType = estimateTypeFor(rng, order.serviceType as WorkOrderServiceType);
    const createdAtMs = Math.max(nowMs - 30 * DAY + HOUR, order.createdAt.getTime() - rng.int(2, 72) * HOUR);
    Object.assign(lead, {
      name: customer.name,
      email: customer.email ?? people.email(customer.name.split(' ')),
      phone: customer.phone,
      address: `${customer.address}, ${customer.city}, SC ${customer.zip ?? ''}`.trim(),
      serviceType,
      priority: estimatePriority(serviceType),
      description: rng.chance(0.85) ? rng.pick(ESTIMATE_DESCRIPTIONS[serviceType]) : null,
      preferredDate: order.serviceDate > calendar.ymd(createdAtMs) && rng.chance(0.7) ? order.serviceDate : null,
      status: order.status === 'completed' ? 'completed' : 'scheduled',
      workflowStage: 'converted_to_work_order',
      customerId: customer.id,
      workOrderId: order.id,
      createdAt: new Date(createdAtMs),
      updatedAt: new Date(Math.min(nowMs, order.createdAt.getTime() + MINUTE)),
      // Converting answers the request: the answer comes after the request, never before it.
      respondedAt: new Date(Math.min(nowMs, order.createdAt.getTime() + MINUTE)),
    } satisfies Partial<EstimateRow>);
    order.estimateRequestId = lead.id;
  });
  return rows;
}

// Chat assistant ---------------------------------------------------------------------------------------

function buildChat(
  rng: Rng,
  ctx: { count: number; customers: readonly CustomerRow[]; workOrders: readonly WorkOrderRow[]; todayStart: number; nowMs: number },
): { conversations: ConversationRow[]; leads: AiLeadRow[] } {
  const { nowMs, todayStart } = ctx;
  const conversations: ConversationRow[] = [];
  const leads: AiLeadRow[] = [];
  const usedOrders = new Set<string>();
  // Chat bookings create anytime, pending/scheduled orders in the near future (spec 000 section 9).
  const bookable = ctx.workOrders.filter(
    (order) => (order.status === 'pending' || order.status === 'scheduled') && order.createdAt.getTime() > nowMs - 14 * DAY,
  );
  const sinceMidnight = Math.max(1, Math.floor((nowMs - todayStart) / MINUTE));
  const leadScripts = CHAT_SCRIPTS.filter(([script]) => script.lead);

  for (let thread = 0; conversations.length < ctx.count; thread += 1) {
    // The first threads are bookings, so every run has a handful of leads; several are from today.
    const script = thread < 5 ? rng.pick(leadScripts)[0] : rng.weighted(CHAT_SCRIPTS);
    const exchanges = script.exchanges.slice(0, ctx.count - conversations.length);
    let startMs = thread < 4 ? nowMs - rng.int(1, sinceMidnight) * MINUTE : nowMs - rng.int(1, 14 * 24 * 60 - 1) * MINUTE;
    // Each reply takes one to three minutes; the whole thread is over by now.
    const offsets: number[] = [];
    for (let index = 0, at = 0; index < exchanges.length; index += 1, at += rng.int(60, 180) * 1000) offsets.push(at);
    const spanMs = (offsets[offsets.length - 1] ?? 0) + 30_000;
    startMs = Math.min(startMs, nowMs - spanMs - MINUTE);
    const idSuffix = rng.letters(9, CONVERSATION_ID_ALPHABET);

    let conversationId = `conv_${startMs}_${idSuffix}`;
    let customerId: string | null = null;
    let workOrderId: string | null = null;
    let lead: AiLeadRow | undefined;
    if (script.lead && exchanges.length === script.exchanges.length) {
      // Today's first chats are still new leads; from the fifth thread on about half were booked.
      const converted = thread === 4 || (thread > 4 && rng.chance(0.5));
      const order = converted
        ? (bookable.find((candidate) => candidate.serviceType === script.lead!.serviceType && !usedOrders.has(candidate.id)) ??
          bookable.find((candidate) => !usedOrders.has(candidate.id)))
        : undefined;
      if (order) {
        usedOrders.add(order.id);
        order.timePreference = 'anytime';
        order.notes ??= 'Booked through the website chat assistant';
        customerId = order.customerId;
        workOrderId = order.id;
        // The booking conversation ends a minute before the order was created.
        startMs = Math.min(startMs, order.createdAt.getTime() - spanMs - MINUTE);
      } else if (rng.chance(0.4) && ctx.customers.length > 0) {
        customerId = rng.pick(ctx.customers).id;
      }
      conversationId = `conv_${startMs}_${idSuffix}`;
      const { urgency, serviceType, notes } = script.lead;
      const leadScore = Math.min(10, 5 + (urgency === 'high' ? 3 : 0) + (serviceType === 'installation' ? 2 : 0) + 1);
      const leadCreatedMs = startMs + spanMs;
      lead = {
        id: randomUUID(),
        customerId,
        conversationId,
        leadScore,
        urgency,
        serviceType,
        status: workOrderId ? 'converted' : 'new',
        source: 'ai_chat',
        notes,
        workOrderId,
        createdAt: new Date(leadCreatedMs),
        updatedAt: new Date(leadCreatedMs),
      };
    } else if (rng.chance(0.15) && ctx.customers.length > 0) {
      customerId = rng.pick(ctx.customers).id;
    }

    exchanges.forEach((exchange, index) => {
      conversations.push({
        conversationId,
        customerId,
        userMessage: exchange.user,
        aiResponse: exchange.ai,
        intent: exchange.intent,
        createdAt: new Date(startMs + offsets[index]!),
      });
    });
    if (lead) leads.push(lead);
  }
  return { conversations, leads };
}
