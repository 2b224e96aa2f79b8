import { Link } from 'react-router';
import { company } from '#client/lib/company.ts';
import { acceptedPayments } from '#shared/business.ts';
import { oneLineAddress, telHref } from '#shared/company-profile.ts';

const footerLinks = [
  { to: '/', label: 'Home' },
  { to: '/AC', label: 'Cooling' },
  { to: '/reviews', label: 'Reviews' },
  { to: '/AboutUs', label: 'About Us' },
  { to: '/service-areas', label: 'Service Areas' },
  { to: '/heating', label: 'Heating' },
  { to: '/MaintenancePlan', label: 'Maintenance Plans' },
  { to: '/admin', label: 'Careers' },
  { to: '/BookingPage', label: 'Contact' },
  { to: '/coupons', label: 'Coupons' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
] as const;


export function SiteFooter() {
  const address = oneLineAddress(company.address);
  const socialLinks = [
    { href: company.social.facebook, label: 'Facebook' },
    { href: company.social.instagram, label: 'Instagram' },
    { href: company.social.google, label: 'Google' },
  ].filter((link) => link.href);
  return (
    <footer className="bg-brand-900 text-slate-100">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-3">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="text-lg font-semibold">
            {company.name}
          </h2>
          <p className="mt-2">
            <a href={telHref(company.phone)} className="text-lg font-semibold text-white underline-offset-2 hover:underline">
              {company.phone}
            </a>
          </p>
          <address className="mt-2 not-italic">{address}</address>
          <p className="mt-2">
            <a
              href={`https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`}
              target="_blank"
              rel="noopener noreferrer"
              className="underline"
            >
              View on Map
            </a>
          </p>
          <p className="mt-4">
            <Link to="/service-areas" className="inline-block rounded-md border border-white/60 px-4 py-2 font-medium hover:bg-white/10">
              Areas We Serve
            </Link>
          </p>
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="text-lg font-semibold">
            Quick Links
          </h2>
          <ul className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-payments">
          <h2 id="footer-payments" className="text-lg font-semibold">
            We Accept
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2">
            {acceptedPayments.map((method) => (
              <li key={method} className="rounded bg-white px-3 py-1 text-sm font-semibold text-brand-900">
                {method}
              </li>
            ))}
          </ul>
          {socialLinks.length > 0 ? (
            <ul className="mt-4 flex gap-3" aria-label="Social media">
              {socialLinks.map((link) => (
                <li key={link.label}>
                  <a href={link.href} target="_blank" rel="noopener noreferrer" className="underline">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      </div>
      <p className="border-t border-white/20 py-4 text-center text-sm">
        © {new Date().getFullYear()} {company.name}. All rights reserved.
      </p>
    </footer>
  );
}
