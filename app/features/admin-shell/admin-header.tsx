import { useRef, useState, type MouseEvent } from 'react';
import { isLinkClick, useDismiss } from '#client/components/ui/use-dismiss.ts';
import { Link, NavLink } from 'react-router';
import type { StaffUser } from '#shared/auth.ts';
import { useLogout } from '#client/features/auth/index.ts';
import { NotificationBell } from '#client/features/notifications/index.ts';

/** Spec 000 section 2: the admin header navigation, in this order. */
export const adminNavigation = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/map', label: 'Map' },
  { to: '/admin/geocoding-setup', label: 'Setup Geocoding' },
  { to: '/admin/calendar', label: 'Calendar' },
  { to: '/admin/estimates', label: 'Estimates' },
  { to: '/admin/customers', label: 'Customers' },
  { to: '/admin/workorders', label: 'Work Orders' },
  // Issue 22: the maintenance plans' visits to schedule, by month, area and plan.
  { to: '/admin/visits-due', label: 'Visits Due' },
  // Issue 20: good / better / best quotes the customer approves online, then invoices.
  { to: '/admin/quotes', label: 'Quotes' },
  { to: '/admin/invoices', label: 'Invoices' },
  // Issue 20: what the company sells and at what price (staff read; admins change).
  { to: '/admin/price-book', label: 'Price Book' },
] as const;

export function AdminHeader({ user }: { user: StaffUser }) {
  const [isNavOpen, setIsNavOpen] = useState(false);
  const [isUserMenuOpen, setIsUserMenuOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const userMenuButtonRef = useRef<HTMLButtonElement>(null);
  const logout = useLogout();


  useDismiss(headerRef, (reason) => {
    // Escape returns focus to the user menu's button when that menu was open.
    if (reason === 'escape' && isUserMenuOpen) userMenuButtonRef.current?.focus();
    setIsUserMenuOpen(false);
    setIsNavOpen(false);
  });

  // Following a link closes the menus (the header stays mounted across screens).
  const closeOnLinkClick = (event: MouseEvent) => {
    if (isLinkClick(event)) {
      setIsNavOpen(false);
      setIsUserMenuOpen(false);
    }
  };

  const navLinkClass = ({ isActive }: { isActive: boolean }) =>
    `block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium xl:px-2 ${isActive ? 'bg-brand-700 text-white' : 'text-slate-100 hover:bg-brand-800'}`;

  return (
    <header ref={headerRef} className="bg-brand-900 text-white shadow">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2">
        <Link to="/admin" className="mr-2 whitespace-nowrap font-bold">
          HVAC Admin
        </Link>
        <button
          type="button"
          className="ml-auto rounded p-2 xl:hidden"
          aria-expanded={isNavOpen}
          aria-controls="admin-navigation"
          onClick={() => setIsNavOpen((open) => !open)}
        >
          <span className="sr-only">Navigation</span>
          <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M4 7h16M4 12h16M4 17h16" />
          </svg>
        </button>
        <nav
          id="admin-navigation"
          aria-label="Admin"
          className={`${isNavOpen ? 'block' : 'hidden'} absolute inset-x-0 top-14 z-40 bg-brand-900 p-3 shadow-lg xl:static xl:block xl:p-0 xl:shadow-none`}
        >
          <ul className="flex flex-col gap-1 xl:flex-row xl:gap-0.5" onClick={closeOnLinkClick}>
            {adminNavigation.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={'end' in item ? item.end : false} className={navLinkClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <NotificationBell />
        <div className="relative">
          <button
            ref={userMenuButtonRef}
            type="button"
            aria-haspopup="true"
            aria-expanded={isUserMenuOpen}
            aria-controls="admin-user-menu"
            onClick={() => setIsUserMenuOpen((open) => !open)}
            className="flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-brand-800"
          >
            <span aria-hidden="true" className="flex h-7 w-7 items-center justify-center rounded-full bg-accent-600 font-semibold">
              {user.name.charAt(0).toUpperCase()}
            </span>
            {/* Where the navigation needs the room (a phone; one row of links from 1280 px) the initial only; the name stays in the button's accessible name. */}
            <span className="sr-only sm:not-sr-only sm:max-w-40 sm:truncate xl:sr-only 2xl:not-sr-only">{user.name}</span>
            <span className="sr-only">account menu</span>
          </button>
          <ul
            id="admin-user-menu"
            hidden={!isUserMenuOpen}
            onClick={closeOnLinkClick}
            className="absolute right-0 z-50 mt-1 w-48 rounded-md bg-white py-1 text-slate-800 shadow-lg ring-1 ring-black/10"
          >
            <li className="border-b border-slate-100 px-4 py-2 text-xs text-slate-500">{user.email}</li>
            <li>
              <Link to="/" className="block px-4 py-2 hover:bg-slate-100">
                View Website
              </Link>
            </li>
            <li>
              <Link to="/admin/account" className="block px-4 py-2 hover:bg-slate-100">
                Change password
              </Link>
            </li>
            {user.role === 'admin' ? (
              <li>
                <Link to="/admin/settings" className="block px-4 py-2 hover:bg-slate-100">
                  Settings
                </Link>
              </li>
            ) : null}
            <li>
              <button
                type="button"
                onClick={() => logout.mutate()}
                disabled={logout.isPending}
                className="block w-full px-4 py-2 text-left hover:bg-slate-100"
              >
                Logout
              </button>
            </li>
          </ul>
        </div>
      </div>
    </header>
  );
}
