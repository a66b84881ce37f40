-- A session store made by chatbot schema version 1 (pg_dump --inserts of the tables, schema name removed):
-- two sessions of two turns, for the migration test.
CREATE TABLE chatbot_schema (
    version integer NOT NULL
);
CREATE TABLE chatbot_sessions (
    id text NOT NULL,
    version integer NOT NULL,
    title text NOT NULL,
    system text NOT NULL,
    summary text NOT NULL,
    summary_covers integer NOT NULL,
    provider text NOT NULL,
    model text NOT NULL,
    totals jsonb NOT NULL,
    calibration jsonb NOT NULL,
    options json NOT NULL,
    tool_sources json DEFAULT '{}'::json NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    turn_count integer NOT NULL,
    revision bigint NOT NULL
);
CREATE TABLE chatbot_turns (
    session_id text NOT NULL,
    n integer NOT NULL,
    created_at text NOT NULL,
    body text NOT NULL,
    data json NOT NULL
);
INSERT INTO chatbot_schema VALUES (1);
INSERT INTO chatbot_sessions VALUES ('standup', 1, 'Standup notes', 'You are terse.', '', 0, 'groq', 'openai/gpt-oss-20b', '{"requests": 0, "cached_tokens": 0, "prompt_tokens": 0, "summary_tokens": 0, "summary_requests": 0, "completion_tokens": 0, "reported_requests": 0, "estimated_prompt_tokens": 0, "estimated_completion_tokens": 0}', '{}', '{}', '{"functions": [], "mcp": []}', '2026-12-01T16:38:01+00:00', '2026-12-01T16:38:01+00:00', 2, 1);
INSERT INTO chatbot_sessions VALUES ('recipes', 1, '', 'You are terse.', '', 0, 'groq', 'openai/gpt-oss-20b', '{"requests": 0, "cached_tokens": 0, "prompt_tokens": 0, "summary_tokens": 0, "summary_requests": 0, "completion_tokens": 0, "reported_requests": 0, "estimated_prompt_tokens": 0, "estimated_completion_tokens": 0}', '{}', '{}', '{"functions": [], "mcp": []}', '2026-12-01T16:38:01+00:00', '2026-12-01T16:38:01+00:00', 2, 1);
INSERT INTO chatbot_turns VALUES ('standup', 1, '2026-12-01T16:38:01+00:00', 'the deploy plan for Friday
noted: the deploy plan for Friday', '{"messages":[{"role":"user","content":"the deploy plan for Friday"},{"role":"assistant","content":"noted: the deploy plan for Friday"}],"usage":null,"latency":null,"created_at":"2026-12-01T16:38:01+00:00","interrupted":false}');
INSERT INTO chatbot_turns VALUES ('standup', 2, '2026-12-01T16:38:01+00:00', 'roll back if the canary fails
noted: roll back if the canary fails', '{"messages":[{"role":"user","content":"roll back if the canary fails"},{"role":"assistant","content":"noted: roll back if the canary fails"}],"usage":null,"latency":null,"created_at":"2026-12-01T16:38:01+00:00","interrupted":false}');
INSERT INTO chatbot_turns VALUES ('recipes', 1, '2026-12-01T16:38:01+00:00', 'a kimchi stew recipe 김치찌개
noted: a kimchi stew recipe 김치찌개', '{"messages":[{"role":"user","content":"a kimchi stew recipe 김치찌개"},{"role":"assistant","content":"noted: a kimchi stew recipe 김치찌개"}],"usage":null,"latency":null,"created_at":"2026-12-01T16:38:01+00:00","interrupted":false}');
INSERT INTO chatbot_turns VALUES ('recipes', 2, '2026-12-01T16:38:01+00:00', 'less salt in the deploy of spices
noted: less salt in the deploy of spices', '{"messages":[{"role":"user","content":"less salt in the deploy of spices"},{"role":"assistant","content":"noted: less salt in the deploy of spices"}],"usage":null,"latency":null,"created_at":"2026-12-01T16:38:01+00:00","interrupted":false}');
ALTER TABLE ONLY chatbot_sessions
    ADD CONSTRAINT chatbot_sessions_pkey PRIMARY KEY (id);
ALTER TABLE ONLY chatbot_turns
    ADD CONSTRAINT chatbot_turns_pkey PRIMARY KEY (session_id, n);
CREATE INDEX chatbot_sessions_updated ON chatbot_sessions USING btree (updated_at DESC);
ALTER TABLE ONLY chatbot_turns
    ADD CONSTRAINT chatbot_turns_session_id_fkey FOREIGN KEY (session_id) REFERENCES chatbot_sessions(id) ON DELETE CASCADE;
