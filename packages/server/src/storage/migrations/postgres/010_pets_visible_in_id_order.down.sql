DROP TRIGGER pets_insert_in_id_order ON pets;
DROP FUNCTION pets_insert_in_id_order();
