-- Pets become visible in id order. Every statement inserting pets first takes this lock, held until
-- its transaction ends, which is after its commit became visible; only then does the next insert
-- draw ids. So no pet can appear later below an id that is already visible, a full page of a listing
-- never changes, and the newest id is a change counter (read-cache.ts). The trigger, not the
-- application, takes the lock so that every writer (older instances during an upgrade, manual
-- inserts) keeps the order.
CREATE FUNCTION pets_insert_in_id_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('petstore.pets:' || TG_TABLE_SCHEMA));
  RETURN NULL;
END
$$;
CREATE TRIGGER pets_insert_in_id_order BEFORE INSERT ON pets
  FOR EACH STATEMENT EXECUTE FUNCTION pets_insert_in_id_order();
