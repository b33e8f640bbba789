// @heraldhq/inbox-react: React components and hooks on Herald's headless inbox client.
export { HeraldProvider, type HeraldProviderProps } from "./provider.js";
export { Inbox, type InboxProps, type ItemHelpers } from "./Inbox.js";
export { Blocks, type Block, type BlocksProps } from "./Blocks.js";
export { Bell, BellButton, type BellProps, type BellButtonProps } from "./Bell.js";
export {
  useHeraldClient,
  useInboxState,
  useInboxActions,
  useNotifications,
  useUnreadCount,
  usePreferences,
  useHeraldEvent,
  INITIAL_STATE,
  type InboxActions,
  type UseNotificationsOptions,
  type UseNotificationsResult,
  type UsePreferencesResult,
} from "./hooks.js";
export type { PreferenceSettings } from "./settings.js";
export type { HeraldContextValue } from "./context.js";
export type { Themed } from "./theme.js";
export type { ThemeVariable } from "./styles.js";
export { css } from "./styles.js";
export type {
  HeraldClient,
  HeraldClientOptions,
  HeraldEvents,
  InboxState,
  Notification,
  Preference,
  View,
  Channel,
  Category,
  FlowPreference,
  QuietHours,
  QuietHoursUpdate,
  ChannelSwitches,
} from "@heraldhq/inbox/client";
