import { Outlet } from 'react-router';
import { ChatBubble } from '#client/features/chat/chat-bubble.tsx';
import { SiteFooter } from '#client/features/site/site-footer.tsx';
import { SiteHeader } from '#client/features/site/site-header.tsx';

/** The public site's frame: header, footer and chat widget appear only here, never on /admin paths. */
export default function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      <ChatBubble />
    </div>
  );
}
