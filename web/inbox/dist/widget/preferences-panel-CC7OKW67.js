import{a as f,c as n,d}from"./chunk-DVHRKZRJ.js";import"./chunk-WOT6VMZA.js";var w=["monday","tuesday","wednesday","thursday","friday","saturday","sunday"];function m(l){let e={};for(let s of l.split("; ").filter(Boolean)){let t=/^start and end/.test(s)?"window":/^(start|end|days)\b/.exec(s)?.[1]??(/timezone/.test(s)?"timezone":"");(e[t]??(e[t]=[])).push(s)}return e}function g(l,e){return new Intl.DateTimeFormat(e,{weekday:"long",timeZone:"UTC"}).format(Date.UTC(2023,0,2+w.indexOf(l)))}function b(l){let s=Intl.supportedValuesOf?.("timeZone")??[],t=s.includes("UTC")?s:["UTC",...s];return t.includes(l)?t:[l,...t]}var v=l=>({enabled:l.enabled,start:l.start??"",end:l.end??"",days:[...l.days??[]]}),h=class{constructor(e,s,t){this.client=e;this.update=s;this.locale=t;this.draft={enabled:!1,start:"",end:"",days:[]};this.errors={};this.saved=""}set(e){this.quiet=e,this.draft=v(e),this.errors={}}async save(e){e.preventDefault();let s=this.quiet,t=this.draft,r=t.enabled?{...t.start||t.end?{start:t.start,end:t.end}:{},days:t.days}:{enabled:!1};this.quiet={...s,enabled:t.enabled,start:t.enabled&&t.start||void 0,end:t.enabled&&t.end||void 0,days:t.enabled?t.days:[]},this.errors={},this.saved="",this.update();try{this.set(await this.client().request("PUT","/preferences/quiet-hours",r)),this.saved="Quiet hours saved."}catch(a){this.quiet=s,this.errors=m(a instanceof Error?a.message:String(a))}this.update()}async setZone(e,s){let t=this.quiet;this.quiet={...t,timezone:e},delete this.errors.timezone,this.saved="",this.update();try{await this.client().request("PATCH","/profile",{timezone:e}),this.saved="Time zone saved."}catch(r){this.quiet=t,s.value=t.timezone,this.errors={...this.errors,timezone:m(r instanceof Error?r.message:String(r)).timezone??[String(r)]}}this.update()}summary(){let e=this.quiet;if(!e.enabled)return"No quiet hours.";let s=e.start&&e.end?`${e.start}\u2013${e.end}`:"",t=(e.days??[]).map(r=>g(r,this.locale())).join(", ");return`Quiet ${[s,t&&`all day ${t}`].filter(Boolean).join(" and ")} (${e.timezone}).`}render(){let e=this.quiet;if(!e)return n``;let s=this.draft,t=i=>this.errors[i]?.length?n`<p class="error" id=${`qh-${i||"form"}-err`} role="alert">${this.errors[i].join(" ")}</p>`:d,r=(...i)=>i.filter(o=>this.errors[o]?.length).map(o=>`qh-${o}-err`).join(" ")||void 0,a=(i,o)=>n`<label class="field">
      <span>${o}</span>
      <input type="time" step=${/:\d\d:\d\d/.test(s[i])?1:60} name=${i} .value=${s[i]} ?disabled=${!s.enabled} aria-invalid=${r(i,"window")?"true":"false"}
        aria-describedby=${r(i,"window")??d} @input=${c=>s[i]=c.target.value} />
    </label>`;return n`<form class="quiet" part="quiet-hours" @submit=${i=>this.save(i)} novalidate>
        <fieldset>
          <legend>Quiet hours</legend>
          <p class="help">Notifications by email, SMS, push and chat that arrive during your quiet hours wait until they end. In-app notifications arrive at once; critical ones are never held.</p>
          <p class="summary" role="status">${this.summary()}</p>
          <label class="switch"><span>Use quiet hours</span>
            <input type="checkbox" role="switch" aria-label="Use quiet hours" .checked=${s.enabled}
              @change=${i=>(s.enabled=i.target.checked,this.update())} />
          </label>
          <div class="window">${a("start","From")}${a("end","Until")}</div>
          ${t("start")}${t("end")}${t("window")}
          <fieldset class="days" aria-describedby=${r("days")??d}>
            <legend>Quiet all day on</legend>
            ${w.map(i=>n`<label class="day"><input type="checkbox" name="days" value=${i} .checked=${s.days.includes(i)} ?disabled=${!s.enabled}
                  @change=${o=>{s.days=o.target.checked?[...s.days,i]:s.days.filter(c=>c!==i)}} /><span>${g(i,this.locale())}</span></label>`)}
          </fieldset>
          ${t("days")}${t("")}
          <button type="submit" class="save">Save quiet hours</button>
        </fieldset>
      </form>
      <fieldset class="zone" part="timezone">
        <legend>Time zone</legend>
        <label class="field"><span>Your time zone</span>
          <select name="timezone" aria-invalid=${this.errors.timezone?"true":"false"} aria-describedby=${r("timezone")??"qh-zone-help"}
            @change=${i=>this.setZone(i.target.value,i.target)}>
            ${b(e.timezone).map(i=>n`<option value=${i} ?selected=${i===e.timezone}>${i.replaceAll("_"," ")}</option>`)}
          </select>
        </label>
        <p class="help" id="qh-zone-help">Quiet hours, and notifications sent at a time of day, follow it.</p>
        ${t("timezone")}
      </fieldset>
      ${this.saved?n`<p class="saved" role="status">${this.saved}</p>`:d}`}};var T=f`.prefs{padding: 0 16px 16px;}.help{font-size: 13px;color: var(--herald-muted);margin: 0 0 12px;}h3{font-size: 14px;margin: 16px 0 8px;}fieldset{border: 1px solid var(--herald-border);border-radius: 8px;margin: 0 0 12px;padding: 4px 12px 8px;}legend{font-weight: 600;font-size: 14px;padding: 0 4px;}.switch{display: flex;align-items: center;justify-content: space-between;padding: 6px 0;font-size: 13px;}.switch.whole{font-weight: 600;}.vh{position: absolute;width: 1px;height: 1px;overflow: hidden;clip: rect(0 0 0 0);white-space: nowrap;}.locked{font-size: 12px;color: var(--herald-muted);margin: 2px 0 6px;}.error{font-size: 12px;color: #b91c1c;margin: 4px 0;}:host([theme="dark"]) .error{color: #fca5a5;}.summary,.saved{font-size: 13px;margin: 0 0 8px;}.window{display: flex;gap: 12px;}.field{display: flex;flex-direction: column;gap: 4px;font-size: 13px;margin: 6px 0;}.field input,.field select{font: inherit;padding: 4px 6px;border: 1px solid var(--herald-border);border-radius: 6px;background: var(--herald-bg);color: var(--herald-fg);}.days{display: flex;flex-wrap: wrap;gap: 4px 12px;}.day{display: inline-flex;align-items: center;gap: 4px;font-size: 13px;}.save{font: inherit;font-size: 13px;font-weight: 600;margin-top: 8px;padding: 6px 12px;border: 0;border-radius: 6px;background: var(--herald-accent);color: var(--herald-bg);cursor: pointer;}input:disabled{cursor: not-allowed;opacity: 0.6;}input[role="switch"]{appearance: none;flex: none;width: 34px;height: 20px;border-radius: 10px;background: var(--herald-border);position: relative;cursor: pointer;margin: 0;transition: background 0.15s;}input[role="switch"]::after{content: "";position: absolute;top: 2px;left: 2px;width: 16px;height: 16px;border-radius: 50%;background: #fff;transition: transform 0.15s;}input[role="switch"]:checked{background: var(--herald-accent);}input[role="switch"]:checked::after{transform: translateX(14px);}@media (prefers-reduced-motion: reduce){input[role="switch"],input[role="switch"]::after{transition: none;}}`,u=class{constructor(e,s){this.host=e;this.back=s;this.flows=[];this.channels={};this.failed=!1;this.errors={};this.quiet=new h(()=>e.client,()=>e.requestUpdate(),()=>e.locale)}open(){this.prefs=void 0,this.failed=!1,this.errors={},this.host.requestUpdate();let e=this.host.client;e&&Promise.all([e.preferences(),e.request("GET","/preferences/workflows"),e.request("GET","/preferences/channels"),e.request("GET","/preferences/quiet-hours")]).then(([s,t,r,a])=>{this.prefs=s,this.flows=t,this.channels=r,this.quiet.set(a),this.host.requestUpdate()},()=>{this.prefs=[],this.failed=!0,this.host.requestUpdate()})}name(e){return this.host.t.channels[e]??e}async optimistic(e,s,t,r){delete this.errors[e],s(!0),this.host.requestUpdate();try{await t()}catch(a){s(!1),r.checked=!r.checked,this.errors[e]=`Not saved: ${a instanceof Error?a.message:String(a)}`,this.host.requestUpdate()}}switchPreference(e,s,t,r){let a=i=>this.prefs=this.prefs?.map(o=>o.category.id!==e.category.id?o:{...o,channelPreferences:o.channelPreferences.map(c=>c.channel===s?{...c,enabled:i}:c)});return this.optimistic(`category-${e.category.id}`,i=>a(i?t:!t),()=>this.host.client.setPreference(e.category.id,s,t),r)}switchFlow(e,s,t,r){let a=this.flows,i=e.workflow.identifier,o=s?{identifier:i,channels:{[s]:t}}:{identifier:i,enabled:t};return this.optimistic(`workflow-${i}`,c=>this.flows=c?this.flows.map(p=>p.workflow.identifier!==i?p:s?{...p,channels:{...p.channels,[s]:t}}:{...p,enabled:t}):a,async()=>this.flows=await this.host.client.request("PATCH","/preferences/workflows",{workflows:[o]}),r)}switchChannel(e,s,t){return this.optimistic("channels",r=>this.channels={...this.channels,[e]:r?s:!s},async()=>this.channels=await this.host.client.request("PUT","/preferences/channels",{[e]:s}),t)}toggle(e,s,t,r,a,i=!1){return n`<label class=${i?"switch whole":"switch"}>
      <span>${s}</span>
      <input type="checkbox" role="switch" part="switch" aria-label=${e} .checked=${t||!!r} ?disabled=${!!r}
        aria-describedby=${r??d} @change=${o=>a(o.target.checked,o.target)} />
    </label>`}alert(e){return this.errors[e]?n`<p class="error" role="alert">${this.errors[e]}</p>`:d}flowChannels(e){let s=new Set(Object.keys(e.channels??{}));for(let t of this.prefs??[])for(let r of t.channelPreferences)s.add(r.channel);return s.size||["inApp","email"].forEach(t=>s.add(t)),Object.keys(this.host.t.channels).filter(t=>s.has(t))}renderTopics(){let e=this.prefs;return n`<h3 id="prefs-topics">Topics</h3>
      <div role="group" aria-labelledby="prefs-topics" part="topics">
        ${e.length===0?n`<p class="help">${this.host.t.noCategories}</p>`:e.map(s=>{let t=s.critical?`locked-category-${s.category.id}`:void 0;return n`<fieldset part="preference" aria-describedby=${t??d}>
                <legend>${s.category.name}</legend>
                ${t?n`<p class="locked" id=${t}>${s.lockedReason}</p>`:d}
                ${s.channelPreferences.map(r=>this.toggle(`${s.category.name}: ${this.name(r.channel)}`,this.name(r.channel),r.enabled,t,(a,i)=>this.switchPreference(s,r.channel,a,i)))}
                ${this.alert(`category-${s.category.id}`)}
              </fieldset>`})}
      </div>`}renderFlows(){return this.flows.length?n`<h3 id="prefs-flows">Notifications</h3>
      <p class="help">Turn a notification off, or only some of its channels. A channel set here wins over the notification's switch and its topic.</p>
      <div role="group" aria-labelledby="prefs-flows" part="workflows">
        ${this.flows.map(e=>{let s=e.workflow.identifier,t=e.workflow.name||s,r=e.critical?`locked-workflow-${s}`:void 0,a=e.channels??{};return n`<fieldset part="workflow" aria-describedby=${r??d}>
            <legend class="vh">${t}</legend>
            ${this.toggle(t,t,e.enabled,r,(i,o)=>this.switchFlow(e,"",i,o),!0)}
            ${r?n`<p class="locked" id=${r}>${e.lockedReason}</p>`:d}
            ${this.flowChannels(e).map(i=>this.toggle(`${t}: ${this.name(i)}`,this.name(i),a[i]??e.enabled,r,(o,c)=>this.switchFlow(e,i,o,c)))}
            ${this.alert(`workflow-${s}`)}
          </fieldset>`})}
      </div>`:d}renderChannels(){return n`<h3>Channels</h3>
      <fieldset part="channels">
        <legend>Receive notifications by</legend>
        <p class="help">Turn a channel off to get nothing on it, except critical notifications.</p>
        ${Object.keys(this.channels).map(e=>this.toggle(`All notifications: ${this.name(e)}`,this.name(e),this.channels[e],void 0,(s,t)=>this.switchChannel(e,s,t)))}
        ${this.alert("channels")}
      </fieldset>`}render(){let e=this.host.t;return n`<header part="header">
        <button class="icon" aria-label=${e.back} title=${e.back} @click=${this.back}><svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z"/></svg></button>
        <h2>${e.preferences}</h2>
      </header>
      <div class="list prefs" part="preferences">
        <p class="help">${e.prefsHelp}</p>
        ${this.prefs===void 0?n`<div class="empty" role="status">${e.loading}</div>`:this.failed?n`<div class="empty" role="status">${e.loadFailed} <button class="link" @click=${()=>this.open()}>${e.retry}</button></div>`:n`${this.renderTopics()}${this.renderFlows()}${this.renderChannels()}<h3>Quiet hours and time zone</h3>${this.quiet.render()}`}
      </div>`}};function q(l,e){return new u(l,e)}export{q as createPanel,T as styles};
