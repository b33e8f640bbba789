// <Bell/>: the bell button with the unread badge, updated in realtime.
import { forwardRef, type ButtonHTMLAttributes } from "react";
import { strings } from "@heraldhq/inbox/i18n";
import { useUnreadCount } from "./hooks.js";
import { Icon } from "./icons.js";
import { Styles, rootProps, type Themed } from "./theme.js";

/** Props of the bell button: a button's props and the locale of its label. */
export interface BellButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The label's language (default "en"). */
  locale?: string;
}

/** The bell glyph and badge inside a button; its name is "Notifications, 3 unread". */
export const BellButton = forwardRef<HTMLButtonElement, BellButtonProps>(function BellButton({ locale, ...rest }, ref) {
  const count = useUnreadCount();
  const t = strings(locale || "en");
  return (
    <button ref={ref} type="button" aria-label={count > 0 ? `${t.notifications}, ${t.unread(count)}` : t.notifications} className="herald-bell" {...rest}>
      <Icon name="bell" size={22} />
      {count > 0 && (
        <span className="herald-badge" aria-hidden="true">
          {count > 99 ? "99+" : count}
        </span>
      )}
    </button>
  );
});

/** Props of Bell: the button's props (onClick…), the locale and the theme. */
export type BellProps = Omit<BellButtonProps, "className" | "style"> & Themed;

/**
 * A standalone bell with its badge (styles and theme included): open your own panel from
 * its onClick, or use <Inbox/> for the bell and the widget's popover.
 */
export const Bell = forwardRef<HTMLButtonElement, BellProps>(function Bell({ theme, variables, className, style, ...button }, ref) {
  return (
    <span {...rootProps({ theme, variables, className, style }, "")}>
      <Styles />
      <BellButton ref={ref} {...button} />
    </span>
  );
});
