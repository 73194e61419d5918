// Example wire lines for the tests: each is written the way the gateway's `json.dumps(frame) + "\n"`
// writes it (Python separators, ensure_ascii), with the values of the reference note's catalogue (§2.4, §7.2).

export const REQUEST_ID = '9f0c6d1e2b3a4c5d8e7f601a2b3c4d5e';

const DESCRIPTOR =
  '{"contract_version": 1, "platform": "discord", "label": "Discord", "max_message_length": 2000, ' +
  '"supports_draft_streaming": false, "supports_edit": true, "supports_threads": true, ' +
  '"markdown_dialect": "discord", "len_unit": "chars", "supported_ops": ["send", "edit", "typing", "react"]}';

/** Gateway → connector lines, one per frame type and per op. */
export const GATEWAY_LINES = {
  helloRelay: '{"type": "hello", "platform": "relay", "botId": ""}\n',
  helloDiscord:
    '{"type": "hello", "platform": "discord", "botId": "appShared", "command_manifest": [' +
    '{"name": "new", "description": "Start a new session"}, ' +
    '{"name": "model", "description": "Show or switch the model", "options": [{"type": 3, "name": "name", ' +
    '"description": "Model name", "required": false, "choices": [{"name": "fast", "value": "fast"}]}]}]}\n',
  send:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "send", "chat_id": "chan1", ` +
    '"content": "hi \\ud83d\\ude00 caf\\u00e9", "reply_to": null, "metadata": {"notify": true, ' +
    '"scope_id": "guildA", "user_id": "u1"}}, "platform": "discord", "botId": "appShared"}\n',
  sendReply:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "send", "chat_id": "-1001", ` +
    '"content": "reply", "reply_to": null, "metadata": {"thread_id": "17"}}, "platform": "telegram"}\n',
  edit:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "edit", "chat_id": "chan1", ` +
    '"message_id": "m1", "content": "edited", "metadata": {"scope_id": "guildA"}}}\n',
  typing:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "typing", "chat_id": "chan1", ` +
    '"metadata": {"scope_id": "guildA", "user_id": "u1"}}, "platform": "discord", "botId": "appShared"}\n',
  typingClear:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "typing", "chat_id": "C123", ` +
    '"content": "", "metadata": {"slack_team_id": "T1"}}, "platform": "slack"}\n',
  followUp:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "follow_up", ` +
    '"session_key": "agent:main:discord:group:chan1:u1", "kind": "discord.interaction_token", ' +
    '"content": "done", "metadata": {}}, "platform": "discord", "botId": "appShared"}\n',
  getChatInfo: `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "get_chat_info", "chat_id": "chan1"}}\n`,
  sendMedia:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "send_media", "chat_id": "chan1", ` +
    '"media_kind": "image", "source_url": "https://connector.example/relay/media/abc", "content": "", ' +
    '"reply_to": null, "metadata": {}, "filename": "chart.png"}}\n',
  prompt:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "prompt", "chat_id": "chan1", ` +
    '"content": "Run rm -rf build?", "prompt_kind": "approval", "prompt_id": "a1b2c3d4", "options": [' +
    '{"id": "once", "label": "Allow once", "style": "success"}, {"id": "deny", "label": "Deny", "style": "danger"}], ' +
    '"reply_to": null, "metadata": {}, "timeout_s": 300}}\n',
  react:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "react", "chat_id": "chan1", ` +
    '"message_id": "m1", "emoji": "\\ud83d\\udc40", "remove": false, "metadata": {"scope_id": "guildA"}}}\n',
  threadCreate:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "thread_create", "chat_id": "chan1", ` +
    '"thread_name": "handoff", "metadata": {}}}\n',
  threadRename:
    `{"type": "outbound", "requestId": "${REQUEST_ID}", "action": {"op": "thread_rename", "chat_id": "chan1", ` +
    '"message_id": "th1", "thread_name": "Fix the build", "metadata": {}, "only_if_current_name": "handoff"}}\n',
  interrupt: '{"type": "interrupt", "session_key": "agent:main:telegram:dm:42", "reason": null}\n',
  goingIdle: '{"type": "going_idle"}\n',
  inboundAck: '{"type": "inbound_ack", "bufferId": "7"}\n',
} as const;

/** Connector → gateway lines, one per frame type (compact, as a TypeScript connector writes them). */
export const CONNECTOR_LINES = {
  descriptor: `{"type": "descriptor", "descriptor": ${DESCRIPTOR}}\n`,
  inbound:
    '{"type":"inbound","event":{"text":"hello","message_type":"text","message_id":"m9","source":' +
    '{"platform":"discord","chat_id":"chan1","chat_type":"group","user_id":"u1","scope_id":"guildA",' +
    '"is_bot":false,"message_is_edit":false}},"bufferId":"b-1"}\n',
  outboundResult: `{"type":"outbound_result","requestId":"${REQUEST_ID}","result":{"success":true,"message_id":"m1"}}\n`,
  interruptInbound:
    '{"type":"interrupt_inbound","session_key":"agent:main:discord:group:chan1:u1","chat_id":"chan1"}\n',
  passthroughForward:
    '{"type":"passthrough_forward","forward":{"platform":"discord","botId":"appShared","method":"POST",' +
    '"path":"/interactions","headers":[["content-type","application/json"]],"bodyB64":"eyJ0eXBlIjoxfQ=="},' +
    '"bufferId":"pb-1"}\n',
  goingIdleAck: '{"type":"going_idle_ack"}\n',
} as const;
