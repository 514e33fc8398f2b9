//! PIONEER: M. M. Botvinnik's trajectories and zones of play (seed 004).
pub mod attack;
pub mod control;
pub mod reject;
pub mod route;
pub mod trajectory;
