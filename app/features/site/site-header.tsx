import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { isLinkClick, useDismiss } from '#client/components/ui/use-dismiss.ts';
import { Link, NavLink } from 'react-router';
import { company } from '#client/lib/company.ts';

/** Spec 000 section 9: the header takes its 'scrolled' look after 50 px. */
export const headerScrollThreshold = 50;

const services = [
  { to: '/MaintenancePlan', label: 'Maintenance Plans' },
  { to: '/AC', label: 'Cooling' },
  { to: '/Heating', label: 'Heating' },
] as const;

export function SiteHeader() {
  const [isScrolled, setIsScrolled] = useState(false);
  const [isServicesOpen, setIsServicesOpen] = useState(false);
  const [isMobileMenuOpen, setIsMobileMenuOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const onScroll = () => setIsScrolled(window.scrollY > headerScrollThreshold);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // A click outside, or Escape, closes the dropdown and the mobile menu.
  useDismiss(headerRef, () => {
    setIsServicesOpen(false);
    setIsMobileMenuOpen(false);
  });


  // Following a link closes the menus (the header stays mounted across pages).
  const closeOnLinkClick = (event: MouseEvent) => {
    if (isLinkClick(event)) {
      setIsServicesOpen(false);
      setIsMobileMenuOpen(false);
    }
  };

  const linkClass = 'rounded px-3 py-2 font-medium text-slate-800 hover:text-brand-700';
  return (
    <header
      ref={headerRef}
      data-scrolled={isScrolled ? 'true' : 'false'}
      className={`sticky top-0 z-40 border-b transition-shadow ${isScrolled ? 'border-slate-200 bg-white/95 shadow-md backdrop-blur' : 'border-transparent bg-white'}`}
    >
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-brand-800">
          {/* shrink-0: before the icon arrives it has no size of its own, and the flex row would squeeze it (a layout shift). */}
          <img src="/favicon.svg" alt="" width={32} height={32} className="shrink-0" />
          <span>{company.name}</span>
        </Link>
        <button
          type="button"
          className="rounded p-2 text-slate-800 md:hidden"
          aria-expanded={isMobileMenuOpen}
          aria-controls="site-menu"
          onClick={() => setIsMobileMenuOpen((open) => !open)}
        >
          <span className="sr-only">Menu</span>
          <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            {isMobileMenuOpen ? <path d="M6 6l12 12M6 18L18 6" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
        <ul
          id="site-menu"
          onClick={closeOnLinkClick}
          className={`${isMobileMenuOpen ? 'flex' : 'hidden'} absolute inset-x-0 top-full flex-col gap-1 border-b border-slate-200 bg-white p-4 shadow-lg md:static md:flex md:flex-row md:items-center md:border-0 md:p-0 md:shadow-none`}
        >
          <li className="relative">
            <button
              type="button"
              className={`${linkClass} flex w-full items-center gap-1`}
              aria-expanded={isServicesOpen}
              aria-controls="services-menu"
              onClick={() => setIsServicesOpen((open) => !open)}
            >
              Services
              <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12" fill="currentColor">
                <path d="M2 4l4 4 4-4z" />
              </svg>
            </button>
            <ul
              id="services-menu"
              className={`${isServicesOpen ? 'block' : 'hidden'} min-w-48 rounded-md bg-white py-1 md:absolute md:left-0 md:top-full md:border md:border-slate-200 md:shadow-lg`}
            >
              {services.map((service) => (
                <li key={service.to}>
                  <NavLink to={service.to} className="block px-4 py-2 text-slate-800 hover:bg-brand-50">
                    {service.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </li>
          <li>
            <NavLink to="/AboutUs" className={`${linkClass} block`}>
              About Us
            </NavLink>
          </li>
          <li>
            {/* Spec: Contact Us goes to /estimate on desktop and /BookingPage on mobile. */}
            <Link to="/estimate" className="hidden rounded-md bg-accent-700 px-4 py-2 font-semibold text-white hover:bg-accent-800 md:inline-block">
              Contact Us
            </Link>
            <Link to="/BookingPage" className="block rounded-md bg-accent-700 px-4 py-2 text-center font-semibold text-white md:hidden">
              Contact Us
            </Link>
          </li>
        </ul>
      </nav>
    </header>
  );
}
