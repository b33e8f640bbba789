// <Inbox/>: the widget's UI in React — the bell, and a popover with tabs (all, unread, each
// category), the list (paged: scrolling loads more) and the preferences. The popover is
// rendered in a portal under <body>, placed by position.ts (flipped and shifted to stay on
// screen), and is a full-width sheet on screens of 480 px and less.
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type UIEvent } from "react";
import { createPortal } from "react-dom";
import type { Notification, View } from "@heraldhq/inbox/client";
import { strings, relativeTime, type Strings } from "@heraldhq/inbox/i18n";
import { isSafeUrl } from "@heraldhq/inbox/safeurl";
import { BellButton } from "./Bell.js";
import { Blocks } from "./Blocks.js";
import { useHeraldClient, useNotifications, type UseNotificationsResult } from "./hooks.js";
import { Icon } from "./icons.js";
import { follow, type Placement } from "./position.js";
import { Preferences } from "./Preferences.js";
import { Styles, rootProps, type Themed } from "./theme.js";

const useIsoLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

/** What a custom item renderer receives beside the notification. */
export interface ItemHelpers {
  /** Whether the notification is unread. */
  unread: boolean;
  /** Its age, e.g. "5 minutes ago". */
  time: string;
  /** Opens it as the default item does: records the click and follows a safe URL. */
  open(): void;
  markRead(): Promise<unknown>;
  markUnread(): Promise<unknown>;
  markSeen(): Promise<unknown>;
  archive(): Promise<unknown>;
  remove(): Promise<unknown>;
  /** Sets its state (what a state button of its blocks does). */
  setState(state: string): Promise<unknown>;
  /** Snoozes it until a time. */
  snooze(until: Date): Promise<unknown>;
}

/** Props of Inbox. */
export interface InboxProps extends Themed {
  /** The language of the labels (default "en"). */
  locale?: string;
  /** Where the popover opens from the bell (default bottom-end); it flips and shifts to stay on screen. */
  placement?: Placement;
  /** Renders the content of each list item instead of the default (the <li> stays). */
  renderItem?: (notification: Notification, helpers: ItemHelpers) => ReactNode;
  /** Called when a notification is opened; event.preventDefault() keeps the page from following its URL. */
  onNotificationClick?: (notification: Notification, event: { preventDefault(): void }) => void;
}

/** The bell and the inbox popover, the same UI as the <herald-inbox> widget. */
export function Inbox(props: InboxProps) {
  const { locale, placement = "bottom-end", renderItem, onNotificationClick } = props;
  const t = strings(locale || "en");
  const [open, setOpen] = useState(false);
  const [panel, setPanel] = useState<"list" | "preferences">("list");
  const root = useRef<HTMLSpanElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const pop = useRef<HTMLDivElement>(null);
  const inbox = useNotifications();

  // Position the open popover, and follow scrolling and resizing.
  useIsoLayoutEffect(() => {
    const b = bell.current;
    const p = pop.current;
    if (!open || !b || !p) return;
    return follow(b, p, placement);
  }, [open, placement]);

  // Close on a click outside, and on Escape wherever the focus is (a removed button leaves
  // it on <body>): the focus goes back to the bell. Focus the selected tab on opening.
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      const path = e.composedPath();
      if (!path.some((x) => x === root.current || x === pop.current)) setOpen(false);
    };
    const escape = (e: globalThis.KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      bell.current?.focus();
    };
    document.addEventListener("click", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("click", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);
  useEffect(() => {
    if (open && panel === "list") pop.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  }, [open, panel]);

  // The popover is at the end of <body>: Tab past its last control goes back to the bell
  // (and closes it), Shift+Tab before its first goes to the bell, as if it followed the bell.
  const onPopoverKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "Tab") return;
    const all = [...e.currentTarget.querySelectorAll<HTMLElement>("button, input, a[href], [tabindex]")].filter((el) => el.tabIndex >= 0 && !el.hasAttribute("disabled"));
    const edge = e.shiftKey ? all[0] : all[all.length - 1];
    if (!edge || document.activeElement !== edge) return;
    e.preventDefault();
    if (!e.shiftKey) setOpen(false);
    bell.current?.focus();
  };

  return (
    <span {...rootProps(props, "herald-inbox")} ref={root}>
      <Styles />
      <BellButton
        ref={bell}
        locale={locale}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setPanel("list");
          setOpen(!open);
        }}
      />
      {open &&
        createPortal(
        <div {...rootProps({ theme: props.theme, variables: props.variables }, "herald-popover")} role="dialog" aria-label={t.notifications} ref={pop} onKeyDown={onPopoverKey}>
          {panel === "preferences" ? (
            <>
              <header>
                <button className="herald-icon" aria-label={t.back} title={t.back} onClick={() => setPanel("list")}>
                  <Icon name="back" size={18} />
                </button>
                <h2>{t.preferences}</h2>
              </header>
              <Preferences t={t} />
            </>
          ) : (
            <List t={t} locale={locale || "en"} inbox={inbox} renderItem={renderItem} onNotificationClick={onNotificationClick} onPreferences={() => setPanel("preferences")} />
          )}
        </div>,
        document.body,
      )}
    </span>
  );
}

interface ListProps extends Pick<InboxProps, "renderItem" | "onNotificationClick"> {
  t: Strings;
  locale: string;
  inbox: UseNotificationsResult;
  onPreferences: () => void;
}

function List({ t, locale, inbox, renderItem, onNotificationClick, onPreferences }: ListProps) {
  const client = useHeraldClient();
  const panelId = useId();
  const { view, notifications: items } = inbox;
  const cats = client?.connection?.app.categories ?? [];
  const select = (v: View) => void inbox.setView(v).catch(() => {});
  const tabs: [string, View][] = [
    [t.all, { filter: "all", category: null }],
    [t.unreadTab, { filter: "unread", category: null }],
    ...cats.map((c): [string, View] => [c.name, { filter: "all", category: c.identifier }]),
  ];
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const all = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
    const i = all.indexOf(e.target as HTMLElement);
    const next = all[(i + (e.key === "ArrowRight" ? 1 : all.length - 1)) % all.length];
    next?.focus();
    next?.click();
  };
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (inbox.hasMore && !inbox.loadingMore && el.scrollTop + el.clientHeight >= el.scrollHeight - 48) void inbox.loadMore().catch(() => {});
  };
  const hasUnread = inbox.unreadCount > 0 || items.some((n) => !n.readAt);

  let body: ReactNode;
  if (inbox.error && !inbox.loaded) {
    body = (
      <div className="herald-empty" role="status">
        {t.loadFailed}{" "}
        <button className="herald-link" onClick={inbox.retry}>
          {t.retry}
        </button>
      </div>
    );
  } else if (!inbox.loaded) {
    body = (
      <div className="herald-empty" role="status">
        {t.loading}
      </div>
    );
  } else if (items.length === 0) {
    body = (
      <div className="herald-empty" role="status">
        {view.filter === "unread" ? t.emptyUnread : t.empty}
      </div>
    );
  } else {
    body = (
      <>
        <ul aria-label={t.notifications}>
          {items.map((n) => (
            <Item key={n.id} n={n} t={t} locale={locale} inbox={inbox} renderItem={renderItem} onNotificationClick={onNotificationClick} />
          ))}
        </ul>
        {inbox.loadingMore && (
          <div className="herald-more" role="status">
            {t.loading}
          </div>
        )}
      </>
    );
  }

  return (
    <>
      <header>
        <h2>{t.notifications}</h2>
        <div className="herald-tools">
          <button className="herald-link" disabled={!hasUnread} onClick={() => void inbox.markAllRead().catch(() => {})}>
            {t.markAllRead}
          </button>
          <button className="herald-icon" aria-label={t.preferences} title={t.preferences} onClick={onPreferences}>
            <Icon name="gear" size={18} />
          </button>
        </div>
      </header>
      <div className="herald-tabs" role="tablist" aria-label={t.notifications} onKeyDown={onTabKey}>
        {tabs.map(([label, v]) => {
          const selected = v.filter === view.filter && v.category === view.category;
          return (
            <button key={label + v.category} className="herald-tab" role="tab" aria-selected={selected} aria-controls={panelId} tabIndex={selected ? 0 : -1} onClick={() => select(v)}>
              {label}
            </button>
          );
        })}
      </div>
      {inbox.connection === "offline" && (
        <p className="herald-offline" role="status">
          {t.offline}
        </p>
      )}
      <div className="herald-list" role="tabpanel" id={panelId} tabIndex={-1} onScroll={onScroll}>
        {body}
      </div>
    </>
  );
}

interface ItemProps extends Pick<InboxProps, "renderItem" | "onNotificationClick"> {
  n: Notification;
  t: Strings;
  locale: string;
  inbox: UseNotificationsResult;
}

function Item({ n, t, locale, inbox, renderItem, onNotificationClick }: ItemProps) {
  const unread = !n.readAt;
  const time = relativeTime(n.createdAt, locale);
  const name = n.title || n.message;
  const open = useCallback(() => {
    let follow = true;
    onNotificationClick?.(n, { preventDefault: () => void (follow = false) });
    // Only links safeurl allows: a javascript: (or data:, …) url would run in this page.
    void inbox
      .click(n.id)
      .catch(() => {})
      .then(() => {
        if (follow && n.url && isSafeUrl(n.url)) window.location.assign(n.url);
      });
  }, [n, inbox, onNotificationClick]);
  const quiet = (p: Promise<unknown>) => void p.catch(() => {});
  const main = useRef<HTMLButtonElement>(null);

  if (renderItem) {
    const helpers: ItemHelpers = {
      unread,
      time,
      open,
      markRead: () => inbox.markRead(n.id),
      markUnread: () => inbox.markUnread(n.id),
      markSeen: () => inbox.markSeen(n.id),
      archive: () => inbox.archive(n.id),
      remove: () => inbox.remove(n.id),
      setState: (state) => inbox.setState(n.id, state),
      snooze: (until) => inbox.snooze(n.id, until),
    };
    return <li className={unread ? "herald-item herald-unread" : "herald-item"}>{renderItem(n, helpers)}</li>;
  }
  return (
    <li className={unread ? "herald-item herald-unread" : "herald-item"}>
      <div className="herald-body">
      <button ref={main} className="herald-main" aria-label={`${name}${n.title && n.message ? ". " + n.message : ""}. ${time}${unread ? ". " + t.unreadTab : ""}`} onClick={open}>
        {n.icon ? (
          <img className="herald-avatar" src={n.icon} alt="" loading="lazy" />
        ) : (
          <span className="herald-avatar herald-placeholder" aria-hidden="true">
            <Icon name="bell" />
          </span>
        )}
        <span className="herald-text">
          {n.title && <span className="herald-title">{n.title}</span>}
          {n.message && <span className="herald-message">{n.message}</span>}
          <time className="herald-time" dateTime={n.createdAt}>
            {time}
          </time>
        </span>
        {unread && <span className="herald-dot" aria-hidden="true" />}
      </button>
      <Blocks notification={n} onState={(state) => quiet(inbox.setState(n.id, state))} />
      </div>
      <span className="herald-actions">
        {unread && (
          <button className="herald-icon" aria-label={`${t.markRead}: ${name}`} title={t.markRead} onClick={() => {
              main.current?.focus(); // this button goes away: keep the focus on the item
              quiet(inbox.markRead(n.id));
            }}>
            <Icon name="check" />
          </button>
        )}
        <button className="herald-icon" aria-label={`${t.archive}: ${name}`} title={t.archive} onClick={() => quiet(inbox.archive(n.id))}>
          <Icon name="archive" />
        </button>
        <button className="herald-icon" aria-label={`${t.delete}: ${name}`} title={t.delete} onClick={() => quiet(inbox.remove(n.id))}>
          <Icon name="trash" />
        </button>
      </span>
    </li>
  );
}
