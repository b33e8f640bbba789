import { LitElement, type PropertyValues } from "lit";
import { HeraldClient, type InboxState, type Preference } from "./client.js";
/**
 * The Herald inbox element. Attributes: api-key, user-id or user-token, base-url,
 * theme (light|dark|auto), locale. Events: herald-notification, herald-unread-count and
 * herald-click (cancelable: preventDefault keeps the page from following the URL).
 */
export declare class HeraldInbox extends LitElement {
    static properties: {
        apiKey: {
            attribute: string;
        };
        userId: {
            attribute: string;
        };
        userToken: {
            attribute: string;
        };
        baseUrl: {
            attribute: string;
        };
        theme: {
            reflect: boolean;
        };
        locale: {};
        refreshUserToken: {
            attribute: boolean;
        };
        open: {
            state: boolean;
        };
        panel: {
            state: boolean;
        };
        inbox: {
            state: boolean;
        };
        prefs: {
            state: boolean;
        };
        failed: {
            state: boolean;
        };
    };
    apiKey: string;
    userId: string;
    userToken: string;
    baseUrl: string;
    theme: "light" | "dark" | "auto";
    locale: string;
    /** Secure mode: returns a fresh user JWT when Herald refuses the current one. */
    refreshUserToken?: () => Promise<string>;
    open: boolean;
    panel: "list" | "preferences";
    inbox?: InboxState;
    prefs?: Preference[];
    failed: boolean;
    /** The headless client behind the element, once started. */
    client?: HeraldClient;
    private unsubscribe;
    constructor();
    private get t();
    connectedCallback(): void;
    disconnectedCallback(): void;
    private outside;
    protected updated(changed: PropertyValues): void;
    private teardown;
    private restart;
    private fire;
    private toggle;
    private onKeydown;
    private activate;
    private selectView;
    private onTabKey;
    private onScroll;
    private showPreferences;
    private switchPreference;
    render(): import("lit-html").TemplateResult<1>;
    private renderPopover;
    private renderList;
    private renderItems;
    private renderItem;
    private renderPreferences;
    static styles: import("lit").CSSResult;
}
declare global {
    interface HTMLElementTagNameMap {
        "herald-inbox": HeraldInbox;
    }
}
