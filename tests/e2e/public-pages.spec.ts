import { expect, test, type APIRequestContext } from '@playwright/test';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { e2eSiteUrl } from '../../playwright.config.ts';
import { coupons } from '#shared/coupons.ts';
import { maintenancePlans } from '#shared/maintenance-plans.ts';
import { publicPagePaths } from '#shared/public-pages.ts';
import { serviceAreas } from '#shared/service-areas.ts';
import { expectNoSeriousA11yViolations } from './fixtures.ts';

// The company profile the app was built with: the same variables, the same defaults, and the site
// address the journeys' server is started with (playwright.config.ts).
const company = companyProfileFrom(companyEnvSchema.parse({ ...process.env, COMPANY_SITE_URL: e2eSiteUrl }));

/** The one <h1> of every public page this file covers (/estimate and /BookingPage have their own tests). */
const expectedH1: Record<string, string> = {
  '/': 'Heating & Cooling Services',
  '/AC': 'AC Solutions',
  '/Heating': 'Heating Services',
  '/MaintenancePlan': 'Maintenance Plans',
  '/AboutUs': `About ${company.name}`,
  '/service-areas': 'Areas We Serve',
  '/reviews': 'Customer Reviews',
  '/coupons': 'Coupons & Special Offers',
  '/privacy': 'Privacy Policy',
  '/terms': 'Terms of Service',
};
const notCoveredHere = new Set(['/estimate', '/BookingPage']);
const coveredPaths = publicPagePaths.filter((path) => !notCoveredHere.has(path));

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
}

type PageHead = { h1s: string[]; title: string | undefined; description: string | undefined; canonical: string | undefined };

/** What a crawler sees before any script runs: the prerendered HTML's h1s, title, description, canonical. */
async function fetchPrerendered(request: APIRequestContext, path: string): Promise<{ html: string; head: PageHead }> {
  const response = await request.get(path);
  expect(response.status(), `GET ${path}`).toBe(200);
  expect(response.headers()['content-type']).toContain('text/html');
  const html = await response.text();
  const h1s = [...html.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((match) => textOf(match[1] ?? ''));
  const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1];
  const descriptionTag = /<meta[^>]+name="description"[^>]*>/.exec(html)?.[0];
  const canonicalTag = /<link[^>]+rel="canonical"[^>]*>/.exec(html)?.[0];
  return {
    html,
    head: {
      h1s,
      title: title === undefined ? undefined : decodeEntities(title),
      description: descriptionTag ? decodeEntities(/content="([^"]*)"/.exec(descriptionTag)?.[1] ?? '') : undefined,
      canonical: canonicalTag ? /href="([^"]*)"/.exec(canonicalTag)?.[1] : undefined,
    },
  };
}

test('every public page (but the estimate and booking forms) has an expected heading here', () => {
  expect(Object.keys(expectedH1).sort()).toEqual([...coveredPaths].sort());
});

for (const path of coveredPaths) {
  test(`${path} is prerendered with its h1, title, description and canonical link`, async ({ request }) => {
    const { head } = await fetchPrerendered(request, path);
    expect(head.h1s).toEqual([expectedH1[path]]);
    expect(head.title?.trim()).toBeTruthy();
    expect(head.title).toContain(company.name);
    expect(head.description?.length ?? 0).toBeGreaterThan(50);
    expect(head.canonical).toBe(`${company.siteUrl}${path}`);
  });

  test(`${path} shows one visible h1 and has no serious accessibility violations`, async ({ page }) => {
    await page.goto(path);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveCount(1);
    await expect(heading).toBeVisible();
    await expect(heading).toHaveText(expectedH1[path] ?? '');
    await expectNoSeriousA11yViolations(page);
  });
}

test('titles and meta descriptions are unique across the public pages', async ({ request }) => {
  const heads = await Promise.all(publicPagePaths.map(async (path) => ({ path, ...(await fetchPrerendered(request, path)).head })));
  const titles = heads.map((head) => head.title);
  const descriptions = heads.map((head) => head.description);
  expect(new Set(titles).size, JSON.stringify(titles, null, 1)).toBe(heads.length);
  expect(new Set(descriptions).size, JSON.stringify(descriptions, null, 1)).toBe(heads.length);
});

test('every picture the pages use exists, and every <img> reserves its space', async ({ request }) => {
  const urls = new Set<string>(['/images/og-card.jpg']);
  for (const path of coveredPaths) {
    const { html } = await fetchPrerendered(request, path);
    for (const tag of html.match(/<img\b[^>]*>/g) ?? []) {
      expect(tag, `${path}: ${tag}`).toMatch(/\bwidth="\d+"/);
      expect(tag, `${path}: ${tag}`).toMatch(/\bheight="\d+"/);
      expect(tag, `${path}: ${tag}`).toMatch(/\balt="/);
    }
    for (const match of html.matchAll(/(?:src|srcSet|srcset)="([^"]+)"/g)) {
      for (const candidate of (match[1] ?? '').split(',')) {
        const url = candidate.trim().split(/\s+/)[0] ?? '';
        if (url.startsWith('/images/')) urls.add(url);
      }
    }
  }
  expect(urls.size).toBeGreaterThan(10);
  for (const url of urls) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    expect(response.headers()['content-type'], url).toMatch(/^image\/(avif|webp|jpeg)/);
  }
});

test('the home page hero: buttons, sections, and a high-priority hero image', async ({ page, request }) => {
  const { html } = await fetchPrerendered(request, '/');
  expect(html.match(/fetchpriority="high"/gi)).toHaveLength(1);
  await page.goto('/');
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'FREE Estimate', exact: true })).toHaveAttribute('href', '/estimate');
  await expect(main.getByRole('link', { name: `${company.name} About`, exact: true })).toHaveAttribute('href', '/MaintenancePlan');
  await expect(main.getByText('HEATING AND COOLING SERVICE IN THE LOW COUNTRY')).toBeVisible();
  await expect(main.getByRole('heading', { level: 2, name: 'Reach Out to a Trusted Home Expert in Bluffton' })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Read all customer reviews' })).toHaveAttribute('href', '/reviews');
  for (const to of ['/AC', '/Heating', '/MaintenancePlan', '/service-areas']) {
    await expect(main.locator(`a[href="${to}"]`).first()).toBeVisible();
  }
});

test('the About page has its spec sections and a Contact Us button to the estimate form', async ({ page }) => {
  await page.goto('/AboutUs');
  const main = page.getByRole('main');
  await expect(main.getByText('About the company', { exact: true })).toBeVisible();
  for (const name of ['Our Mission', 'Our Services', 'Why Choose Us', 'What Our Clients Say']) {
    await expect(main.getByRole('heading', { level: 2, name })).toBeVisible();
  }
  for (const name of [
    'Installation & Upgrades',
    'Repair & Maintenance',
    'Indoor Air Quality',
    'Energy Efficiency',
    'Expertise',
    'Customer-Centric Approach',
    'Reliability & Timeliness',
    'Quality Assurance',
  ]) {
    await expect(main.getByRole('heading', { level: 3, name })).toBeVisible();
  }
  await expect(page.getByRole('region', { name: 'What Our Clients Say' }).getByRole('figure')).toHaveCount(3);
  await expect(main.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/estimate');
});

test('the Cooling page lists the AC types and offers a free estimate', async ({ page }) => {
  await page.goto('/AC');
  const main = page.getByRole('main');
  for (const name of ['24/7 AC Repair', 'Flat Rates and Warranties', 'AC Repair Services', 'Air Conditioning Services']) {
    await expect(main.getByRole('heading', { level: 2, name })).toBeVisible();
  }
  for (const name of ['Central AC', 'Split AC', 'Window Units']) {
    await expect(main.getByRole('heading', { level: 3, name, exact: true })).toBeVisible();
  }
  for (const name of ['Central', 'Ductless Mini-Split', 'Heat Pumps']) {
    await expect(main.getByRole('heading', { level: 4, name, exact: true })).toBeVisible();
  }
  await expect(main.getByRole('link', { name: 'Get Free Estimate' })).toHaveAttribute('href', '/estimate');
});

for (const path of ['/MaintenancePlan', '/Heating']) {
  test(`${path} shows the three plans with every feature and the comparison table`, async ({ page }) => {
    await page.goto(path);
    const main = page.getByRole('main');
    for (const plan of maintenancePlans) {
      await expect(main.getByRole('heading', { level: 3, name: plan.name, exact: true })).toBeVisible();
      await expect(main.getByText(`$${plan.yearlyPrice}`, { exact: true })).toBeVisible();
      const features = main.getByRole('list', { name: `${plan.name} plan features` });
      await expect(features).toContainText(`${plan.visitsPerYear} tune-up`);
      await expect(features).toContainText(`${plan.repairDiscountPercent}% discount on repairs`);
      await expect(features).toContainText(plan.responseTime);
      await expect(features).toContainText(plan.equipmentCoverage);
      await expect(features).toContainText(plan.supportHours);
      await expect(features).toContainText(plan.noOvertimeCharges ? 'No overtime charges' : 'Overtime charges apply');
      await expect(features).toContainText(plan.priorityEmergency ? 'Priority emergency status' : 'No priority emergency status');
      await expect(features).toContainText(plan.emergencyServiceIncluded ? 'Emergency service included' : 'Emergency service not included');
    }
    const table = main.getByRole('table', { name: /maintenance plans compared/i });
    await expect(table.getByRole('columnheader')).toHaveText(['Feature', ...maintenancePlans.map((plan) => plan.name)]);
    await expect(table.getByRole('row', { name: /Yearly price/ })).toContainText(
      maintenancePlans.map((plan) => `$${plan.yearlyPrice}/year`).join(''),
    );
    await expect(table.getByRole('rowheader')).toHaveCount(9);
  });
}

test('/heating in lower case serves the Heating page', async ({ page, request }) => {
  const { head } = await fetchPrerendered(request, '/heating');
  expect(head.h1s).toEqual(['Heating Services']);
  await page.goto('/heating');
  await expect(page.getByRole('heading', { level: 1, name: 'Heating Services' })).toBeVisible();
});

test('reviews show accessible star ratings and no self-serving review markup', async ({ page, request }) => {
  const { html } = await fetchPrerendered(request, '/reviews');
  expect(html).not.toMatch(/AggregateRating|"@type":\s*"Review"/);
  await page.goto('/reviews');
  const reviews = page.getByRole('region', { name: 'What customers say' }).getByRole('figure');
  expect(await reviews.count()).toBeGreaterThanOrEqual(8);
  await expect(page.getByRole('img', { name: /^Rated [1-5](\.\d)? out of 5$/ }).first()).toBeVisible();
  await expect(page.getByRole('img', { name: 'Rated 5 out of 5' }).first()).toBeVisible();
});

test('service areas list every town with its ZIP codes', async ({ page }) => {
  await page.goto('/service-areas');
  for (const area of serviceAreas) {
    const section = page.getByRole('region', { name: `${area.name}, SC` });
    await expect(section).toBeVisible();
    for (const zip of area.zipCodes) await expect(section.getByText(zip, { exact: true })).toBeVisible();
  }
});

test('every coupon has terms, an expiry and a button to the estimate form', async ({ page }) => {
  await page.goto('/coupons');
  const claims = page.getByRole('main').getByRole('link', { name: /^Claim this offer/ });
  await expect(claims).toHaveCount(coupons.length);
  for (const coupon of coupons) {
    const card = page.getByRole('article', { name: coupon.title });
    await expect(card.getByText(coupon.code, { exact: true })).toBeVisible();
    await expect(card).toContainText(coupon.expiry);
    await expect(card.getByRole('link', { name: /^Claim this offer/ })).toHaveAttribute('href', '/estimate');
  }
});

test('every footer link reaches a real page', async ({ page, request }) => {
  await page.goto('/');
  const footerLinks = page.getByRole('contentinfo').getByRole('link');
  const hrefs = (await footerLinks.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))).filter((href) =>
    href.startsWith('/'),
  );
  expect(hrefs).toEqual(expect.arrayContaining(['/', '/AC', '/reviews', '/AboutUs', '/service-areas', '/heating', '/MaintenancePlan', '/admin', '/BookingPage', '/coupons', '/privacy', '/terms']));
  for (const href of new Set(hrefs)) {
    const response = await request.get(href);
    expect(response.status(), href).toBe(200);
    await page.goto(href);
    if (href === '/admin') {
      await expect(page).toHaveURL(/\/admin\/login$/);
      await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    } else {
      await expect(page.getByRole('heading', { level: 1 }), href).toBeVisible();
    }
  }
});

test('the Services dropdown opens with its three pages and closes on a click outside', async ({ page }) => {
  await page.goto('/');
  const navigation = page.getByRole('navigation', { name: 'Main' });
  const toggle = navigation.getByRole('button', { name: 'Services' });
  const items = [
    { name: 'Maintenance Plans', href: '/MaintenancePlan' },
    { name: 'Cooling', href: '/AC' },
    { name: 'Heating', href: '/Heating' },
  ];
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(navigation.getByRole('link', { name: 'Cooling', exact: true })).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  for (const item of items) {
    const link = navigation.getByRole('link', { name: item.name, exact: true });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', item.href);
  }
  await page.getByRole('heading', { level: 1 }).click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  for (const item of items) await expect(navigation.getByRole('link', { name: item.name, exact: true })).toBeHidden();
});

test('the header takes its scrolled look after 50 px and loses it at the top', async ({ page }) => {
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await page.mouse.move(640, 400);
  await page.mouse.wheel(0, 600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(50);
  await expect(header).toHaveAttribute('data-scrolled', 'true');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await page.evaluate(() => window.scrollTo(0, 51));
  await expect(header).toHaveAttribute('data-scrolled', 'true');
});

test.describe('on a phone-sized screen', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('no public page scrolls sideways', async ({ page }) => {
    const tooWide: string[] = [];
    for (const path of coveredPaths) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) tooWide.push(`${path} is ${overflow}px wider than the screen`);
    }
    expect(tooWide).toEqual([]);
  });
});
