UPDATE api_keys SET last_used_at = (SELECT u.last_used_at FROM api_key_uses u WHERE u.key_id = api_keys.id)
  WHERE EXISTS (
    SELECT 1 FROM api_key_uses u
    WHERE u.key_id = api_keys.id AND (api_keys.last_used_at IS NULL OR u.last_used_at > api_keys.last_used_at)
  );
DROP TABLE api_key_uses;
