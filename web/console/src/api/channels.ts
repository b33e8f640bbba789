// The channels, once for the whole console: their identifiers in the order screens list them
// and their names as people read them.

/** Channel is a delivery channel's identifier, as the API names it. */
export type Channel = "inApp" | "email" | "sms" | "whatsapp" | "webPush" | "mobilePush" | "slack" | "discord" | "msTeams" | "webhook";

/** channels are every channel's identifier, in the order screens show them. */
export const channels: Channel[] = ["inApp", "email", "sms", "whatsapp", "webPush", "mobilePush", "slack", "discord", "msTeams", "webhook"];

/** channelNames are the channels' names as people read them. */
export const channelNames: Record<Channel, string> = {
  inApp: "In-app",
  email: "Email",
  sms: "SMS",
  whatsapp: "WhatsApp",
  webPush: "Web push",
  mobilePush: "Mobile push",
  slack: "Slack",
  discord: "Discord",
  msTeams: "Microsoft Teams",
  webhook: "Webhook",
};

/** channelName names a channel; an unknown one keeps its identifier. */
export const channelName = (c: string): string => channelNames[c as Channel] ?? c;
