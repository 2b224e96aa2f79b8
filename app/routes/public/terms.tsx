import { Link } from 'react-router';
import { LegalDocument, type LegalSection } from '#client/features/site/legal-document.tsx';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { acceptedPayments, serviceCallFeeFrom } from '#shared/business.ts';
import { oneLineAddress, telHref } from '#shared/company-profile.ts';

export const meta = () =>
  pageMeta({
    title: `Terms of Service | ${company.name}`,
    description: `The terms for using the ${company.name} website and for our heating and cooling services: estimates, scheduling, cancellations, payment, warranties, maintenance plans and South Carolina law.`,
    path: '/terms',
  });

const sections: LegalSection[] = [
  {
    id: 'about',
    title: 'About these terms',
    body: (
      <p>
        These terms apply when you use this website and when {company.name} (&ldquo;we&rdquo;, &ldquo;us&rdquo;) provides
        heating, ventilation and air-conditioning services to you. If you sign a written proposal or contract with us, its terms
        take priority over these where the two differ.
      </p>
    ),
  },
  {
    id: 'website',
    title: 'Using this website',
    body: (
      <>
        <p>
          The information on this site is general guidance about heating and cooling, not advice for your particular system.
          Prices, plans and offers shown here are subject to the terms stated with them and to an inspection of your equipment.
        </p>
        <p>
          Please do not misuse the site: do not submit requests in someone else&rsquo;s name, try to get into our staff systems,
          or send automated traffic that interferes with it. The text and artwork on this site belong to us; please do not copy
          them for commercial use.
        </p>
      </>
    ),
  },
  {
    id: 'chat',
    title: 'The chat assistant',
    body: (
      <p>
        Our chat assistant is automated software and can make mistakes. Its answers are not a quote, a diagnosis or a confirmed
        appointment: a request made through the chat is confirmed only when our team contacts you. For emergencies, call{' '}
        <a href={telHref(company.emergencyPhone)}>{company.emergencyPhone}</a>. If you smell gas, leave the building and call
        911 and your gas company first.
      </p>
    ),
  },
  {
    id: 'estimates',
    title: 'Estimates and pricing',
    body: (
      <ul>
        <li>Estimates for new systems and major repairs are free.</li>
        <li>
          A diagnostic service call to find the cause of a problem is charged from ${serviceCallFeeFrom}; we tell you the fee
          when you book.
        </li>
        <li>
          Repairs are priced at a flat rate that you approve before work begins. If we find something that changes the job, we
          stop and ask you before doing any extra work.
        </li>
        <li>Written estimates are valid for 30 days unless they say otherwise.</li>
      </ul>
    ),
  },
  {
    id: 'scheduling',
    title: 'Scheduling and access',
    body: (
      <>
        <p>
          We give you an arrival window and call when the technician is on the way. Please make sure an adult (18 or older) is
          present, that we can safely reach the equipment (attic, closet, crawl space or roof), and that pets are secured.
        </p>
        <p>
          Emergencies, severe weather and hurricanes can delay scheduled visits. If we have to move your appointment, we will
          tell you as soon as we can and offer the next available time.
        </p>
      </>
    ),
  },
  {
    id: 'cancellations',
    title: 'Cancellations and rescheduling',
    body: (
      <ul>
        <li>You may cancel or reschedule a service visit at no charge if you tell us at least 24 hours beforehand.</li>
        <li>
          If you cancel later than that, or we cannot get access when we arrive, we may charge a trip fee of no more than our
          service-call fee.
        </li>
        <li>
          For installations, your proposal explains any deposit and how it is refunded. If you sign a contract in your home, you
          may also have a legal right to cancel within three business days; the contract will explain how.
        </li>
      </ul>
    ),
  },
  {
    id: 'payment',
    title: 'Payment',
    body: (
      <p>
        Payment is due when the work is complete, unless your proposal sets out a deposit or payment schedule. We accept{' '}
        {acceptedPayments.join(', ')}. Maintenance plans are paid once a year, per system.
      </p>
    ),
  },
  {
    id: 'warranties',
    title: 'Warranties',
    body: (
      <>
        <ul>
          <li>
            <strong>Repairs:</strong> parts we supply and our labor to install them are warranted for 1 year from the repair
            date.
          </li>
          <li>
            <strong>New installations:</strong> our installation labor is warranted for 2 years. Equipment carries the
            manufacturer&rsquo;s parts warranty, whose length and conditions the manufacturer sets; we register it for you
            when registration is required.
          </li>
          <li>
            Our warranties do not cover damage from misuse, lack of routine maintenance, power surges, lightning, flooding, storm
            or fire damage, work by others, or parts you supply.
          </li>
          <li>To make a warranty claim, call us; we will arrange a visit and handle any manufacturer claim for you.</li>
        </ul>
        <p>These written warranties are in addition to any rights you have under South Carolina law.</p>
      </>
    ),
  },
  {
    id: 'maintenance-plans',
    title: 'Maintenance plans',
    body: (
      <>
        <p>
          Each plan covers one heating and cooling system for one year and includes the visits, discounts and benefits described
          on our <Link to="/MaintenancePlan">Maintenance Plans</Link> page. Plans renew yearly at the current price only if you
          agree to the renewal.
        </p>
        <p>
          You may cancel a plan at any time; we refund the unused part of the year, less the regular price of any visits and
          discounts already used. Response times are the times we aim to meet from your call; during hurricanes, widespread power
          outages or other extreme events we will reach you as quickly as we safely can.
        </p>
      </>
    ),
  },
  {
    id: 'coupons',
    title: 'Coupons and offers',
    body: (
      <p>
        Offers on our <Link to="/coupons">Coupons</Link> page must be mentioned when you book, have no cash value, and cannot be
        combined unless an offer says so. Each offer&rsquo;s own terms and expiry apply.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    body: (
      <>
        <p>
          We carry out our work with reasonable skill and care. As far as the law allows, we are not responsible for indirect or
          consequential losses, such as lost rental income, hotel costs or spoiled food, caused by equipment breaking down when
          that breakdown was not caused by our negligence, and our total liability for any claim is limited to the amount you
          paid us for the service the claim concerns.
        </p>
        <p>
          Nothing in these terms limits our liability for injury or property damage caused by our negligence, for gross
          negligence or willful misconduct, or any right you have that cannot be limited under South Carolina law.
        </p>
      </>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law and disputes',
    body: (
      <p>
        These terms are governed by the laws of the State of South Carolina. If something goes wrong, please call us first;
        most problems are solved quickly that way. Any dispute we cannot settle together will be decided by the courts of South
        Carolina in the county where our office is located.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms from time to time. The version on this page, with its &ldquo;Last updated&rdquo; date, applies
        to work booked from that date; work already agreed stays under the terms that applied when you booked it.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    body: (
      <>
        <ul>
          <li>
            By phone: <a href={telHref(company.phone)}>{company.phone}</a> (24/7 emergencies:{' '}
            <a href={telHref(company.emergencyPhone)}>{company.emergencyPhone}</a>)
          </li>
          <li>
            By e-mail: <a href={`mailto:${company.email}`}>{company.email}</a>
          </li>
          <li>
            By mail: {company.name}, {oneLineAddress(company.address)}
          </li>
        </ul>
        <p>
          How we handle your information is explained in our <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </>
    ),
  },
];

export default function TermsPage() {
  return (
    <LegalDocument
      title="Terms of Service"
      lastUpdated="November 2026"
      intro={
        <p>
          These are the ground rules for using our website and for the heating and cooling work we do for you, written to be read.
          If anything is unclear, call us at {company.phone} and we will explain.
        </p>
      }
      sections={sections}
    />
  );
}
